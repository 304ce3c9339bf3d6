package redact_test

import (
	"fmt"

	"github.com/plainmcp/plainmcp/internal/redact"
	"github.com/plainmcp/plainmcp/secret"
)

// Text a server sent back is quoted only with the secrets it may echo
// taken out.
func ExampleText() {
	code := secret.New("auth-code-4711")
	body := `{"error":"invalid_grant","error_description":"code auth-code-4711 expired"}`
	fmt.Println(redact.Text(body, code))
	// Output:
	// {"error":"invalid_grant","error_description":"code [redacted] expired"}
}
