// Package doclinks holds the test that keeps plainmcp's documentation true:
// every doc link in a package's Go doc comments (a name, Type.Method,
// pkg.Name or Type followed by .Field, in square brackets) and every code
// link in the Markdown pages (a backquoted name pointing at a .go file or a
// package folder) must name something that exists. A renamed method then
// fails `make check` instead of leaving learners a dead reference.
//
// The package has no code of its own; the checks live in its tests.
package doclinks
