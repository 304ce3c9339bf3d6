package a

import "testing"

func TestTop(t *testing.T) {}
