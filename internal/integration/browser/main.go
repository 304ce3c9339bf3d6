// Command browser is a scripted browser for plainmcp's authorization
// integration tests: installed on PATH as xdg-open (the opener mcpc's
// login runs), it plays the user. It follows the authorization URL with a
// cookie jar, fills in and submits the HTML forms the authorization
// server shows (a login form, a consent form), and follows the redirects
// until the authorization server sends it to mcpc's loopback callback.
//
// It is test material, configured by the environment it inherits:
//
//	PLAINMCP_BROWSER_LOG    a file it appends to: one "open <url>" line per
//	                        invocation (the tests count browser flows with
//	                        it), then a line per page it saw
//	PLAINMCP_BROWSER_DELAY  how long the user takes before the first page
//	                        (a time.Duration, e.g. "20s": a slow user)
//	PLAINMCP_BROWSER_USER   the login name typed into a login form
//	PLAINMCP_BROWSER_PASTE  a file: the browser is on another machine and
//	                        cannot reach the loopback callback, so instead of
//	                        following the redirect there it writes the
//	                        redirect's address into this file, for the test
//	                        to paste into mcpc
//
// It exits 0 once the callback answered 200 (or its address was written
// for pasting), 1 otherwise.
package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
	"time"
)

// maxPages bounds the forms submitted in one flow; maxBody the bytes read
// of a page.
const (
	maxPages = 10
	maxBody  = 1 << 20
)

func main() {
	logf := logger(os.Getenv("PLAINMCP_BROWSER_LOG"))
	if len(os.Args) != 2 {
		logf("usage: browser <url>")
		os.Exit(2)
	}
	logf("open %s", os.Args[1])
	if err := browse(os.Args[1], logf); err != nil {
		logf("  failed: %v", err)
		os.Exit(1)
	}
	logf("  done")
}

// logger appends lines to path (nowhere when it is empty). Each line is
// one write on an O_APPEND file, so concurrent browsers do not interleave.
func logger(path string) func(format string, args ...any) {
	return func(format string, args ...any) {
		if path == "" {
			return
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return
		}
		defer f.Close()
		fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format("15:04:05.000"), fmt.Sprintf(format, args...))
	}
}

// browse plays the user from the authorization URL to the callback.
func browse(start string, logf func(string, ...any)) error {
	if err := slowUser(logf); err != nil {
		return err
	}
	client, pasted, err := newClient(logf)
	if err != nil {
		return err
	}
	user := os.Getenv("PLAINMCP_BROWSER_USER")
	if user == "" {
		user = "alice"
	}
	resp, err := client.Get(start)
	for page := 0; ; page++ {
		if err != nil {
			return err
		}
		body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxBody))
		resp.Body.Close()
		if rerr != nil {
			return rerr
		}
		logf("  %d %s", resp.StatusCode, where(resp.Request.URL))
		if done, err := arrived(resp, body, *pasted); done {
			return err
		}
		forms := parseForms(body)
		if len(forms) == 0 {
			return fmt.Errorf("page %s (%d) has no form and is not the callback: %.300s", where(resp.Request.URL), resp.StatusCode, body)
		}
		if page == maxPages {
			return fmt.Errorf("still forms after %d pages", maxPages)
		}
		req, ferr := forms[0].submit(resp.Request.URL, user)
		if ferr != nil {
			return ferr
		}
		logf("  submitting %s %s (%s)", req.Method, where(req.URL), strings.Join(forms[0].names(), ","))
		resp, err = client.Do(req)
	}
}

// slowUser waits as long as PLAINMCP_BROWSER_DELAY says.
func slowUser(logf func(string, ...any)) error {
	d := os.Getenv("PLAINMCP_BROWSER_DELAY")
	if d == "" {
		return nil
	}
	wait, err := time.ParseDuration(d)
	if err != nil {
		return fmt.Errorf("PLAINMCP_BROWSER_DELAY: %w", err)
	}
	logf("  a slow user: waiting %v", wait)
	time.Sleep(wait)
	return nil
}

// newClient is the browser: cookies kept, redirects followed, except to
// the callback when it is out of reach (PLAINMCP_BROWSER_PASTE), where the
// address is written for pasting and *pasted set.
func newClient(logf func(string, ...any)) (*http.Client, *bool, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, nil, err
	}
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	pasted := new(bool)
	if paste := os.Getenv("PLAINMCP_BROWSER_PASTE"); paste != "" {
		client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if req.URL.Path != "/callback" {
				return nil
			}
			logf("  not reachable from here: %s, written for pasting", where(req.URL))
			*pasted = true
			if err := writeFile(paste, req.URL.String()+"\n"); err != nil {
				return err
			}
			return http.ErrUseLastResponse
		}
	}
	return client, pasted, nil
}

// arrived reports whether the flow is over: the redirect's address was
// written for pasting, or the callback answered (an error unless with 200).
func arrived(resp *http.Response, body []byte, pasted bool) (bool, error) {
	switch {
	case pasted:
		return true, nil
	case resp.Request.URL.Path != "/callback":
		return false, nil
	case resp.StatusCode != http.StatusOK:
		return true, fmt.Errorf("the callback answered %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	return true, nil
}

// writeFile writes data to path whole: to a temporary file renamed over
// it, so a reader never sees half of it.
func writeFile(path, data string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(data), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// where is a page's address for the log: without its query, which on the
// callback carries the authorization code.
func where(u *url.URL) string {
	return u.Scheme + "://" + u.Host + u.Path
}
