package skill

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// Loaded is a skill whose SKILL.md was read and verified. It holds the
// entry it was verified against: the files it reads are those the entry
// lists, verified against it, from the session it was loaded over. It is
// immutable and safe for concurrent use; do not modify its slices.
type Loaded struct {
	Skill       *Skill
	Content     []byte         // the SKILL.md, exactly as verified
	Frontmatter map[string]any // parsed from Content (YAML read as the package doc says); equal to the entry's
	Body        []byte         // Content after the frontmatter

	session *mcpclient.Session
}

// Load loads a skill the host has decided to use, over the session whose
// server listed it: it checks the entry (Skill.Check), reads the SKILL.md
// with resources/read, and verifies that its size and SHA-256 digest are
// the entry's and that its frontmatter parses and agrees with the entry's,
// field by field. A failure is a *Error naming the check,
// and nothing else of the skill is read. The supporting files are read
// later, one by one, with Loaded.ReadFile.
//
// Reading the SKILL.md is all Load does on the wire; sk is normally an
// entry from All or Get over the same session. The SEP leaves
// the rest to the host: asking the user, marking the content as coming
// from this server, not acting on allowed-tools without approval.
func Load(ctx context.Context, s *mcpclient.Session, sk *Skill) (*Loaded, error) {
	if err := sk.Check(); err != nil {
		return nil, err
	}
	content, err := readFile(ctx, s, sk, sk.SkillMD)
	if err != nil {
		return nil, err
	}
	fm, body, err := parseFrontmatter(content)
	if err != nil {
		return nil, &Error{Skill: sk.URI, Check: "frontmatter", Reason: "the SKILL.md's frontmatter does not parse", Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(sk.Frontmatter))
	dec.UseNumber()
	var listed map[string]any
	if err := dec.Decode(&listed); err != nil {
		return nil, &Error{Skill: sk.URI, Check: "entry", Reason: "its frontmatter is not an object"}
	}
	if field := frontmatterDiff(fm, listed); field != "" {
		return nil, &Error{Skill: sk.URI, Check: "frontmatter", Field: field,
			Reason: fmt.Sprintf("the SKILL.md's field %q differs from the listing's", truncate(field, 64))}
	}
	return &Loaded{Skill: sk, Content: content, Frontmatter: fm, Body: body, session: s}, nil
}

// ReadFile reads one file of the skill and returns its bytes once their
// size and digest are the entry's. name is the file's path within the
// skill ("references/FORMS.md", resolved against the skill's directory as
// a file system would) or its URI. A file the entry does not list is
// refused without a request (check "unlisted"); so is one whose bytes do
// not verify, and those bytes are not returned. The SKILL.md itself is
// returned as loaded.
func (l *Loaded) ReadFile(ctx context.Context, name string) ([]byte, error) {
	sk := l.Skill
	uri := name
	if !strings.HasPrefix(name, sk.root()+"/") {
		rel := path.Clean(name)
		if path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, &Error{Skill: sk.URI, File: name, Check: "unlisted", Reason: "the path leaves the skill's directory"}
		}
		uri = sk.root() + "/" + rel
	}
	if uri == sk.SkillMD.URI {
		return l.Content, nil
	}
	for _, f := range sk.Files {
		if f.URI == uri {
			return readFile(ctx, l.session, sk, f)
		}
	}
	return nil, &Error{Skill: sk.URI, File: uri, Check: "unlisted", Reason: "the skill's entry does not list this file"}
}

// readFile reads one listed file and verifies its size and digest.
func readFile(ctx context.Context, s *mcpclient.Session, sk *Skill, f File) ([]byte, error) {
	res, err := s.ReadResource(ctx, f.URI)
	if err != nil {
		return nil, fmt.Errorf("skill %s: reading %s: %w", safe.Line(sk.URI, 200), safe.Line(f.URI, 200), err)
	}
	fail := func(check, format string, args ...any) error {
		return &Error{Skill: sk.URI, File: f.URI, Check: check, Reason: fmt.Sprintf(format, args...)}
	}
	var item *mcpclient.ResourceContents
	for i := range res.Contents {
		if res.Contents[i].URI != f.URI {
			continue
		}
		if item != nil {
			return nil, fail("content", "the answer holds the file twice")
		}
		item = &res.Contents[i]
	}
	if item == nil {
		return nil, fail("content", "the answer holds no contents for the file")
	}
	var b []byte
	if item.IsBlob {
		// Refuse an oversized blob before decoding it.
		if int64(len(item.Blob)) > (f.Size+2)/3*4+4 {
			return nil, fail("size", "received more than the %d bytes declared", f.Size)
		}
		if b, err = base64.StdEncoding.DecodeString(item.Blob); err != nil {
			return nil, fail("content", "the blob is not base64")
		}
	} else {
		b = []byte(item.Text)
	}
	if int64(len(b)) != f.Size {
		return nil, fail("size", "received %d bytes, the entry declares %d", len(b), f.Size)
	}
	sum := sha256.Sum256(b)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != f.Digest {
		return nil, fail("digest", "the bytes received hash to %s, the entry says %s", got, f.Digest)
	}
	return b, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
