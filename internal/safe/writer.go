package safe

import (
	"io"
	"unicode/utf8"
)

// A Writer passes everything written to it on made [Printable]: put at
// the sink — a command's standard output and error — it guarantees that
// nothing printed reaches the terminal with a control character in it,
// however the text was built and whichever server it came from. A
// character that one Write splits from the next is held back until the
// next Write or Flush, so that legitimate text is never escaped for
// being cut.
//
// For JSON output, [NewJSONWriter] escapes as JSON does (\u001b, never
// \x1b), so a JSON document stays valid and means the same: every
// character escaped can only stand inside a string.
//
// A Writer is not safe for concurrent use; put a lock in front of it.
type Writer struct {
	w     io.Writer
	style style
	held  []byte // the start of a character split by the last Write
}

// NewWriter returns a Writer to w that escapes as [Printable] does.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, style: goStyle} }

// NewJSONWriter returns a Writer to w for JSON text.
func NewJSONWriter(w io.Writer) *Writer { return &Writer{w: w, style: jsonStyle} }

// Write writes p to the underlying writer with its control characters
// escaped. It returns len(p) when the underlying write succeeds.
func (w *Writer) Write(p []byte) (int, error) {
	buf := p
	if len(w.held) > 0 {
		buf = append(w.held, p...)
		w.held = nil
	}
	keep := incompleteTail(buf)
	text := escape(string(buf[:len(buf)-keep]), w.style)
	if keep > 0 {
		w.held = append([]byte(nil), buf[len(buf)-keep:]...)
	}
	if text == "" {
		return len(p), nil
	}
	if _, err := io.WriteString(w.w, text); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what a Write held back (escaped: it never became a whole
// character).
func (w *Writer) Flush() error {
	if len(w.held) == 0 {
		return nil
	}
	text := escape(string(w.held), w.style)
	w.held = nil
	_, err := io.WriteString(w.w, text)
	return err
}

// incompleteTail is how many bytes at the end of b begin a character that
// is not whole: 0 to 3.
func incompleteTail(b []byte) int {
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-k:]) {
				return 0
			}
			return k
		}
	}
	return 0
}
