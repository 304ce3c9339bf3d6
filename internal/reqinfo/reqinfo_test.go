package reqinfo

import (
	"context"
	"testing"
)

func TestFromOnlyForTheRequestItNames(t *testing.T) {
	info := &Info{Method: "tools/call", Name: "echo"}
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		method string
		want   *Info
	}{
		{"attached, same method", With(context.Background(), info), "tools/call", info},
		{"attached, another method (a nested request)", With(context.Background(), info), "tools/list", nil},
		{"nothing attached", context.Background(), "tools/call", nil},
		{"nil attached", With(context.Background(), nil), "tools/call", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := From(tc.ctx, tc.method); got != tc.want {
				t.Errorf("From(ctx, %q) = %v, want %v", tc.method, got, tc.want)
			}
		})
	}
}
