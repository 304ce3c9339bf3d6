// Package doclinks holds the tests that keep plainmcp's documentation true.
//
// Every doc link in a package's Go doc comments (a name, Type.Method,
// pkg.Name or Type followed by .Field, in square brackets) must name
// something that exists. Every relative link in every Markdown page of the
// module must reach a file or folder, and a link whose text is a Go name in
// backquotes — [`Session.send`](../mcpclient/call.go), `Name`, `pkg.Name`,
// `Type.Method`, `pkg.Type.Method`, `(*T).M` — must name a func, type, var
// or const, or a method, field or interface method of that type, declared
// in the linked .go file (or, for a folder, in a non-test file of its
// package). The Go code is read with go/parser; a link that fails says the
// page, line, link and file, and where in the module the name is declared
// now. A renamed or moved function then fails `make check` instead of
// leaving a learner following docs/walkthrough.md a dead reference.
//
// The package has no code of its own; the checks live in its tests.
package doclinks
