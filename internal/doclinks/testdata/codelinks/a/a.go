// Package a is the code the fixture page links to.
package a

// T has a field, a method here and one in b.go.
type T struct{ F int }

func (t *T) M() {}

// I is an interface.
type I interface{ Do() }

func Top() {}

var V int

const C = 1
