package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// form is an HTML form as a browser submits it: where, how, and its
// controls in document order.
type form struct {
	action, method string
	fields         []field
}

// field is one control: an input, or a button that submits.
type field struct {
	tag, typ, name, value string
}

// parseForms reads the forms of an HTML page with encoding/xml in its
// lenient mode (HTML's void elements auto-closed, its entities known),
// which is enough for the server-rendered pages of authorization servers.
// The raw text of scripts and styles is blanked first, as HTML does not
// parse it as markup; what follows a point the decoder cannot read is not
// seen.
func parseForms(page []byte) []form {
	dec := xml.NewDecoder(bytes.NewReader(blankRawText(page)))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	var forms []form
	var cur *form
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			a := attrs(t)
			switch strings.ToLower(t.Name.Local) {
			case "form":
				forms = append(forms, form{action: a["action"], method: strings.ToUpper(a["method"])})
				cur = &forms[len(forms)-1]
			case "input":
				if cur != nil {
					cur.fields = append(cur.fields, field{tag: "input", typ: strings.ToLower(a["type"]), name: a["name"], value: a["value"]})
				}
			case "button":
				if cur != nil {
					typ := strings.ToLower(a["type"])
					if typ == "" {
						typ = "submit"
					}
					cur.fields = append(cur.fields, field{tag: "button", typ: typ, name: a["name"], value: a["value"]})
				}
			}
		case xml.EndElement:
			if strings.ToLower(t.Name.Local) == "form" {
				cur = nil
			}
		}
	}
	return forms
}

// blankRawText returns page with the contents of its script and style
// elements replaced by spaces.
func blankRawText(page []byte) []byte {
	out := bytes.Clone(page)
	// ASCII case folding only, so that offsets in lower are offsets in page.
	lower := bytes.Clone(page)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	for _, tag := range []string{"script", "style"} {
		open, end := []byte("<"+tag), []byte("</"+tag)
		for i := 0; ; {
			start := bytes.Index(lower[i:], open)
			if start < 0 {
				break
			}
			start += i
			gt := bytes.IndexByte(lower[start:], '>')
			if gt < 0 {
				break
			}
			body := start + gt + 1
			stop := bytes.Index(lower[body:], end)
			if stop < 0 {
				stop = len(lower) - body
			}
			for j := body; j < body+stop; j++ {
				out[j] = ' '
			}
			i = body + stop
		}
	}
	return out
}

func attrs(e xml.StartElement) map[string]string {
	m := make(map[string]string, len(e.Attr))
	for _, a := range e.Attr {
		m[strings.ToLower(a.Name.Local)] = a.Value
	}
	return m
}

// names lists the submitted control names, for the log.
func (f form) names() []string {
	var n []string
	for _, fl := range f.fields {
		if fl.name != "" {
			n = append(n, fl.name)
		}
	}
	return n
}

// typed is what the user leaves in a control: hidden values as they are,
// a login name and a password typed in, checkboxes ticked, a submit
// button's own value; nothing from other buttons.
func (fl field) typed(user string) (string, bool) {
	switch fl.typ {
	case "password":
		return "correct horse battery staple", true
	case "text", "email", "":
		if fl.value == "" {
			return user, true
		}
		return fl.value, true
	case "checkbox", "radio":
		if fl.value == "" {
			return "on", true
		}
		return fl.value, true
	case "button", "reset":
		return "", false
	}
	return fl.value, true
}

// submit builds the request a user's click on the form's first submit
// button sends: hidden fields as they are, a login name and a password
// typed in, checkboxes ticked, the button's own name and value.
func (f form) submit(page *url.URL, user string) (*http.Request, error) {
	target, err := page.Parse(f.action)
	if err != nil {
		return nil, err
	}
	vals := url.Values{}
	clicked := false
	for _, fl := range f.fields {
		submits := fl.typ == "submit" || fl.typ == "image"
		if fl.name == "" || submits && clicked {
			continue
		}
		clicked = clicked || submits
		if v, ok := fl.typed(user); ok {
			vals.Add(fl.name, v)
		}
	}
	var body io.Reader
	method := f.method
	switch method {
	case "", "GET":
		method = http.MethodGet
		target.RawQuery = vals.Encode()
	case "POST":
		body = strings.NewReader(vals.Encode())
	default:
		return nil, errors.New("form method " + method)
	}
	req, err := http.NewRequest(method, target.String(), body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return req, nil
}
