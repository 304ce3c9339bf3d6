package demoserver

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResourcesList(t *testing.T) {
	c := startInitialized(t, &Options{PageSize: 2}, nil, `{}`)
	type resource struct{ URI, Name, MimeType string }
	var all []resource
	cursor, pages := "", 0
	for {
		var page struct {
			Resources  []resource
			NextCursor string
		}
		if err := c.call("resources/list", map[string]string{"cursor": cursor}, &page); err != nil {
			t.Fatal(err)
		}
		pages++
		all = append(all, page.Resources...)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	want := []resource{
		{readmeURI, "readme", "text/markdown"},
		{numbersURI, "numbers", "application/json"},
		{pixelURI, "pixel", "image/png"},
	}
	if d := cmp.Diff(want, all); d != "" || pages != 2 {
		t.Errorf("%d pages; resources (-want +got):\n%s", pages, d)
	}

	var templates struct {
		ResourceTemplates []struct{ URITemplate, Name string }
		NextCursor        *string
	}
	if err := c.call("resources/templates/list", nil, &templates); err != nil {
		t.Fatal(err)
	}
	if len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != greetingTemplate || templates.NextCursor != nil {
		t.Errorf("templates = %+v", templates)
	}
}

func TestResourcesRead(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	type contents struct {
		URI, MimeType string
		Text, Blob    *string
	}
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		uri  string
		want contents
	}{
		{readmeURI, contents{URI: readmeURI, MimeType: "text/markdown", Text: str(readmeText)}},
		{numbersURI, contents{URI: numbersURI, MimeType: "application/json", Text: str(numbersJSON)}},
		{pixelURI, contents{URI: pixelURI, MimeType: "image/png", Blob: str(pixelPNG)}},
		{"demo://greetings/Bob", contents{URI: "demo://greetings/Bob", MimeType: "text/plain", Text: str("Hello, Bob!")}},
		{"demo://greetings/Ada%20L", contents{URI: "demo://greetings/Ada%20L", MimeType: "text/plain", Text: str("Hello, Ada L!")}},
	} {
		var res struct{ Contents []contents }
		if err := c.call("resources/read", map[string]string{"uri": tc.uri}, &res); err != nil {
			t.Fatalf("%s: %v", tc.uri, err)
		}
		if d := cmp.Diff([]contents{tc.want}, res.Contents); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.uri, d)
		}
	}
}

func TestResourceNotFound(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, method := range []string{"resources/read", "resources/subscribe"} {
		for _, uri := range []string{"demo://nope", "demo://greetings/", "demo://greetings/a/b", "demo://greetings/%zz"} {
			err := c.call(method, map[string]string{"uri": uri}, nil)
			e := wantCode(t, err, codeResourceNotFound, uri)
			var data struct{ URI string }
			if json.Unmarshal(e.Data, &data) != nil || data.URI != uri {
				t.Errorf("%s %s: data = %s, want the uri", method, uri, e.Data)
			}
		}
	}
}
