package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/skill"
)

// The skills extension's scenarios (SEP-2640). The client lists the
// server's skills and, where the scenario loads them, loads each as a host
// would when its model asks for it: the SKILL.md first, verified, then the
// supporting files.

func init() {
	scenarios["sep-2640-client-no-prefetch"] = listSkills
	scenarios["sep-2640-client-verify-digest"] = useSkills
	scenarios["sep-2640-client-verify-size"] = useSkills
	scenarios["sep-2640-client-verify-frontmatter"] = useSkills
}

// listSkills lists every skill and prints its name and description; no
// skill is used, so no file is read.
func listSkills(ctx context.Context, sc *scenarioEnv) error {
	return sc.withSession(ctx, &mcpclient.Options{Skills: true}, func(s *mcpclient.Session) error {
		skills, err := mcpclient.Collect(skill.All(ctx, s))
		for _, sk := range skills {
			fmt.Printf("%s: %q\n", sk.Name, sk.Description)
		}
		return err
	})
}

// useSkills loads every listed skill and reads its files. A skill that
// fails verification is refused (reported on stderr) and its files are not
// read; the client then exits 1, saying how many were refused.
func useSkills(ctx context.Context, sc *scenarioEnv) error {
	return sc.withSession(ctx, &mcpclient.Options{Skills: true}, func(s *mcpclient.Session) error {
		skills, err := mcpclient.Collect(skill.All(ctx, s))
		if err != nil {
			return err
		}
		refused := 0
		for _, sk := range skills {
			loaded, err := skill.Load(ctx, s, sk)
			if errors.Is(err, skill.ErrVerification) {
				fmt.Fprintf(os.Stderr, "refused: %v\n", err)
				refused++
				continue
			}
			if err != nil {
				return err
			}
			for _, f := range sk.Files {
				if _, err := loaded.ReadFile(ctx, sk.RelPath(f)); err != nil {
					return err
				}
			}
			fmt.Printf("loaded %s (%d files)\n", sk.Name, 1+len(sk.Files))
		}
		if refused > 0 {
			return fmt.Errorf("%d of %d skills failed verification and were not used", refused, len(skills))
		}
		return nil
	})
}
