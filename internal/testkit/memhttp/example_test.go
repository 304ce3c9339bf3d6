package memhttp_test

import (
	"fmt"
	"io"
	"net/http"

	"github.com/plainmcp/plainmcp/internal/testkit/memhttp"
)

func Example() {
	c := memhttp.Client(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintf(w, "slow down, %s", r.URL.Path)
	}))
	// Nothing listens on port 9: the request never leaves the process.
	resp, err := c.Get("http://127.0.0.1:9/mcp")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), string(body), resp.Request.URL.Host)
	// Output: 429 1 slow down, /mcp 127.0.0.1:9
}
