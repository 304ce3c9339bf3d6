//go:build go1.25

package ui_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/appserver"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/ui"
)

// The interface is read once and kept until the server's resource list
// changes; the read's _meta.ui wins over the listing's.
func TestInterfaceCached(t *testing.T) {
	synctest.Test(t, testInterfaceCached)
}

func testInterfaceCached(t *testing.T) {
	r, srv := appRegistry(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		it, err := ui.Read(ctx, r, "mcp__apps__clock")
		if err != nil {
			t.Fatal(err)
		}
		if it.UI.HTML != appserver.App || it.UI.URI != appserver.AppURI || it.Tool.Server != "apps" {
			t.Fatalf("interface %+v", it.UI.URI)
		}
		if b := it.UI.Meta.PrefersBorder; b == nil || *b || it.UI.Meta.Domain != "listed.example" {
			t.Errorf("meta = %+v, want the read's prefersBorder (false) and the listing's domain", it.UI.Meta)
		}
	}
	if _, err := ui.Read(ctx, r, "mcp__apps__legacy"); err != nil {
		t.Fatal(err)
	}
	if n := srv.Reads.Load(); n != 1 {
		t.Errorf("read %d times, want once", n)
	}
	srv.ResourcesChanged(ctx)
	synctest.Wait() // the notification is in and handled
	if _, err := ui.Read(ctx, r, "mcp__apps__clock"); err != nil {
		t.Fatal(err)
	}
	if n := srv.Reads.Load(); n != 2 {
		t.Errorf("after resources/list_changed: read %d times, want 2", n)
	}
	if _, err := ui.Read(ctx, r, "mcp__apps__note"); !errors.Is(err, ui.ErrNoInterface) {
		t.Errorf("note: err = %v, want ErrNoInterface", err)
	}
	if _, err := ui.Read(ctx, r, "mcp__apps__nope"); !errors.Is(err, toolreg.ErrUnknownTool) {
		t.Errorf("nope: err = %v, want ErrUnknownTool", err)
	}
}
