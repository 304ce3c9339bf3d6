// Package safe holds plainmcp's checks on the text a server or a
// provider sends, each written once and named after what it guarantees
// (the URLs it names are package safeurl's):
//
//   - [Printable] and [Line]: text bound for a terminal carries no control
//     character (C0, C1, ESC sequences, bidirectional overrides) that the
//     terminal would act on; [Line] also keeps a quote to one bounded line.
//
// The library applies them where untrusted text enters an error (a
// peer's error message, a server's stderr, an authorization server's
// metadata); the mcpc command applies them again where text leaves
// (everything it prints).
package safe
