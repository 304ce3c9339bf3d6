// Package skill loads the skills an MCP server serves under the skills
// extension (SEP-2640, io.modelcontextprotocol/skills,
// https://modelcontextprotocol.io/seps/2640-skills-extension), and uses
// nothing of them that it has not verified.
//
// A server lists its skills with skills/list; [All] reads that
// listing and nothing else. Each entry names
// the skill's SKILL.md and every file of the skill with the SHA-256 digest
// and the size of its bytes, and carries the SKILL.md's frontmatter. A
// host shows its model the names and descriptions, and loads a skill only
// when the model (or the user) picks it:
//
//	skills, err := mcpclient.Collect(skill.All(ctx, s)) // reads no file
//	…
//	loaded, err := skill.Load(ctx, s, skills[i]) // reads SKILL.md, verified
//	if errors.Is(err, ErrVerification) {
//		// refused: the error names the check that failed
//	}
//	prompt += string(loaded.Content) // tagged as coming from this server
//	…
//	forms, err := loaded.ReadFile(ctx, "references/FORMS.md") // when the skill asks
//
// # What is verified
//
// [Load] first checks the entry itself ([Skill.Check]): a
// SKILL.md URI whose last path segment is the skill's name, a name that
// follows the Agent Skills rules, every file inside the skill's directory
// and listed once, well-formed digests, at most 512
// files and 16 MiB. A skill whose files are
// "dynamic" publishes no digests and is refused. Then it reads the
// SKILL.md and checks, in this order, before anything else happens:
//
//   - size: the bytes received are exactly as many as the entry says;
//   - digest: their SHA-256 is the entry's;
//   - frontmatter: the YAML frontmatter parses and
//     agrees with the entry's frontmatter field by field (absent and null
//     agree; numbers compare by value).
//
// A failure is a *Error whose Check names what failed
// ("size", "digest", "frontmatter", …, and Field the frontmatter field),
// and no other file of the skill is read. [Loaded.ReadFile] reads a
// supporting file only if the entry lists it ("unlisted" otherwise, with
// no request) and returns its bytes only once their size and digest match.
//
// A matching digest proves the server consistent with itself, not
// trustworthy: the entry and the content come from the same server. Skill
// content is data from that server, as its tool descriptions are; the SEP
// asks hosts to say where it came from, to ask the user before acting on
// it, and never to let its allowed-tools widen what the model may do.
//
// # The frontmatter
//
// This package has its own reader of the YAML that skill frontmatter is
// written in — block and flow collections; plain, quoted and block
// scalars; comments; YAML 1.2's core schema — and refuses what JSON, in
// which the listing carries the frontmatter, cannot hold. Anchors,
// aliases, tags, complex keys and duplicate keys are errors too (see
// frontmatter.go).
package skill
