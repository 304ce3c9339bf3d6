package secret_test

import (
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/secret"
)

// A struct that holds secrets prints safely with no printer of its own.
func Example() {
	type credentials struct {
		ClientID     string
		ClientSecret secret.String
		RefreshToken secret.String
	}
	c := credentials{ClientID: "plainmcp", ClientSecret: secret.New("s3cr3t-value")}
	fmt.Printf("%+v\n", c)
	b, _ := json.Marshal(c)
	fmt.Println(string(b))
	fmt.Println("on the wire:", c.ClientSecret.Reveal())
	// Output:
	// {ClientID:plainmcp ClientSecret:[redacted] RefreshToken:}
	// {"ClientID":"plainmcp","ClientSecret":"[redacted]","RefreshToken":""}
	// on the wire: s3cr3t-value
}
