package skill

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/mcpext"
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// TestSkillsListingReadsNoFile is the no-prefetch rule: listing every page
// of skills reads none of their files.
func TestSkillsListingReadsNoFile(t *testing.T) {
	s, w := skillServer(t, nil, &mcpclient.Options{Skills: true})
	if !s.Capabilities().HasExtension(mcpext.Skills) {
		t.Fatalf("the demo server's extension was not detected: %+v", s.Capabilities().Extensions)
	}
	skills, err := mcpclient.Collect(All(ctx5s(t), s))
	if err != nil {
		t.Fatal(err)
	}
	demo := demoserver.DemoSkills()
	tour := demo[0].Files["SKILL.md"]
	tools := demo[0].Files["references/TOOLS.md"]
	if len(skills) != 2 {
		t.Fatalf("%d skills, want 2", len(skills))
	}
	got := *skills[0]
	got.Frontmatter = nil
	want := Skill{
		URI: "skill://demo-tour/SKILL.md", Name: "demo-tour", Description: demo[0].Frontmatter["description"].(string),
		SkillMD: File{"skill://demo-tour/SKILL.md", sha(tour), int64(len(tour))},
		Files:   []File{{"skill://demo-tour/references/TOOLS.md", sha(tools), int64(len(tools))}},
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(Skill{})); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if skills[1].Name != "haiku" || skills[1].root() != "skill://writing/haiku" || skills[1].RelPath(skills[1].Files[0]) != "examples/pipes.md" {
		t.Errorf("second skill: %+v", skills[1])
	}
	for _, sk := range skills {
		if err := sk.Check(); err != nil {
			t.Errorf("%s: %v", sk.URI, err)
		}
	}
	methods, reads := w.sent()
	if len(reads) != 0 {
		t.Errorf("listing read %v", reads)
	}
	if n := strings.Count(strings.Join(methods, " "), "skills/list"); n != 2 {
		t.Errorf("skills/list sent %d times over two pages of one: %v", n, methods)
	}
}

func TestGetSkill(t *testing.T) {
	s, w := skillServer(t, nil, nil)
	ctx := ctx5s(t)
	sk, err := Get(ctx, s, "skill://writing/haiku/SKILL.md")
	if err != nil || sk.Name != "haiku" || len(sk.Files) != 1 {
		t.Fatalf("GetSkill = %+v, %v", sk, err)
	}
	if err := sk.Check(); err != nil {
		t.Error(err)
	}
	_, err = Get(ctx, s, "skill://nope/SKILL.md")
	if !errors.Is(err, jsonrpc.ErrInvalidParams) {
		t.Errorf("unknown skill: %v", err)
	}
	if _, reads := w.sent(); len(reads) != 0 {
		t.Errorf("reads %v", reads)
	}
}

// TestSkillsNotOffered: a server that did not declare the extension is
// never asked.
func TestSkillsNotOffered(t *testing.T) {
	f := fakemcp.New(t)
	s := connect(t, f, &mcpclient.Options{Era: mcpclient.EraHandshake, Skills: true})
	if _, err := mcpclient.Collect(All(ctx5s(t), s)); !errors.Is(err, ErrNotOffered) {
		t.Errorf("Skills = %v", err)
	}
	if _, err := Get(ctx5s(t), s, "skill://a/SKILL.md"); !errors.Is(err, ErrNotOffered) {
		t.Errorf("GetSkill = %v", err)
	}
	if f.Request("skills/list") != nil || f.Request("skills/get") != nil {
		t.Error("the server was asked")
	}
	var caps struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	json.Unmarshal(f.Request("initialize").Params, &caps)
	if string(caps.Capabilities["extensions"]) != `{"io.modelcontextprotocol/skills":{}}` {
		t.Errorf("initialize declared %s", caps.Capabilities["extensions"])
	}
}

// TestSkillsStateless: in the stateless era the page's envelope (resultType,
// ttlMs, cacheScope) is read with it, and the SEP's shapes decode: a
// listed file set, and "dynamic".
func TestSkillsStateless(t *testing.T) {
	f := fakemcp.New(t)
	f.Result("server/discover", `{"resultType":"complete","supportedVersions":["2026-07-28"],
		"capabilities":{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{"directoryRead":true}}},"serverInfo":{"name":"s","version":"1"}}`)
	f.Result("skills/list", `{"resultType":"complete","ttlMs":0,"cacheScope":"private","skills":[
		{"uri":"skill://pdf-processing/SKILL.md","frontmatter":{"name":"pdf-processing","description":"Extract, fill, and assemble PDF documents"},
		 "resources":[{"uri":"skill://pdf-processing/SKILL.md","digest":"`+sha("x")+`","size":1}]},
		{"uri":"skill://reports/daily/SKILL.md","frontmatter":{"name":"daily","description":"Today's report"},"resources":"dynamic"}]}`)
	s := connect(t, f, nil)
	skills, err := mcpclient.Collect(All(ctx5s(t), s))
	if err != nil || len(skills) != 2 || s.Era() != mcpclient.EraStateless {
		t.Fatalf("Skills = %v, %v (%s era)", skills, err, s.Era())
	}
	if err := skills[0].Check(); err != nil || skills[0].SkillMD.Size != 1 {
		t.Errorf("%+v: %v", skills[0], err)
	}
	var se *Error
	if err := skills[1].Check(); !errors.As(err, &se) || se.Check != "dynamic" || !skills[1].Dynamic {
		t.Errorf("a dynamic skill: %v", err)
	}
	if n := f.Count("resources/read"); n != 0 {
		t.Errorf("%d reads", n)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestSkillCheck: entries that break the SEP's rules are refused before
// anything is read.
func TestSkillCheck(t *testing.T) {
	d := "sha256:" + strings.Repeat("ab", 32)
	good := func() *Skill {
		return &Skill{URI: "skill://acme/refunds/SKILL.md", Name: "refunds", Description: "Refunds.", Frontmatter: json.RawMessage(`{}`),
			SkillMD: File{"skill://acme/refunds/SKILL.md", d, 10},
			Files:   []File{{"skill://acme/refunds/examples/email.md", d, 5}}}
	}
	if err := good().Check(); err != nil {
		t.Fatal(err)
	}
	many := good()
	for i := range maxFiles {
		many.Files = append(many.Files, File{"skill://acme/refunds/f" + itoa(i), d, 1})
	}
	for _, tc := range []struct {
		name   string
		change func(*Skill)
		check  string
	}{
		{"dynamic", func(sk *Skill) { sk.Dynamic = true }, "dynamic"},
		{"no SKILL.md file", func(sk *Skill) { sk.SkillMD = File{} }, "entry"},
		{"not a SKILL.md uri", func(sk *Skill) { sk.URI = "skill://acme/refunds/README.md" }, "entry"},
		{"no scheme", func(sk *Skill) { sk.URI = "acme/refunds/SKILL.md" }, "entry"},
		{"dot segment", func(sk *Skill) { sk.URI = "skill://acme/../refunds/SKILL.md" }, "entry"},
		{"name not last segment", func(sk *Skill) { sk.Name = "acme" }, "entry"},
		{"uppercase name", func(sk *Skill) { sk.Name = "Refunds"; sk.URI = "skill://Refunds/SKILL.md" }, "entry"},
		{"double hyphen", func(sk *Skill) { sk.Name = "a--b"; sk.URI = "skill://a--b/SKILL.md" }, "entry"},
		{"no description", func(sk *Skill) { sk.Description = "" }, "entry"},
		{"long description", func(sk *Skill) { sk.Description = strings.Repeat("x", 1025) }, "entry"},
		{"file outside", func(sk *Skill) { sk.Files[0].URI = "skill://acme/other/x.md" }, "entry"},
		{"file escapes", func(sk *Skill) { sk.Files[0].URI = "skill://acme/refunds/../x.md" }, "entry"},
		{"file twice", func(sk *Skill) { sk.Files = append(sk.Files, sk.Files[0]) }, "entry"},
		{"uppercase digest", func(sk *Skill) { sk.Files[0].Digest = strings.ToUpper(d) }, "entry"},
		{"md5 digest", func(sk *Skill) { sk.Files[0].Digest = "md5:" + strings.Repeat("a", 32) }, "entry"},
		{"negative size", func(sk *Skill) { sk.Files[0].Size = -1 }, "limits"},
		{"one file too big", func(sk *Skill) { sk.Files[0].Size = maxSize + 1 }, "limits"},
		{"too big in all", func(sk *Skill) { sk.Files[0].Size = maxSize - 5 }, "limits"},
		{"too many files", func(sk *Skill) { *sk = *many }, "limits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sk := good()
			tc.change(sk)
			var se *Error
			if err := sk.Check(); !errors.As(err, &se) || se.Check != tc.check || !errors.Is(err, ErrVerification) {
				t.Errorf("Check = %v, want the %s check", err, tc.check)
			}
		})
	}
}

// TestSkillEntryShapes: an entry of the wrong shape is listed, and refused
// by Check, rather than failing its page.
func TestSkillEntryShapes(t *testing.T) {
	for _, tc := range []struct{ name, entry string }{
		{"no resources", `{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"}}`},
		{"resources a number", `{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":5}`},
		{"resources another string", `{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":"static"}`},
		{"a file without size", `{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"x"}]}`},
		{"a fractional size", `{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"x","size":1.5}]}`},
		{"a null file", `{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[null]}`},
		{"frontmatter a list", `{"uri":"skill://a/SKILL.md","frontmatter":["a"],"resources":"dynamic"}`},
		{"name a number", `{"uri":"skill://a/SKILL.md","frontmatter":{"name":1,"description":"d"},"resources":"dynamic"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w skillWire
			if err := json.Unmarshal([]byte(tc.entry), &w); err != nil {
				t.Fatal(err)
			}
			var se *Error
			if err := w.skill().Check(); !errors.As(err, &se) || se.Check != "entry" {
				t.Errorf("Check = %v, want the entry check", err)
			}
		})
	}
}
