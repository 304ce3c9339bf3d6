package mcpclient

import (
	"slices"

	"github.com/plainmcp/plainmcp/internal/mcpversion"
)

// Protocol versions plainmcp speaks.
const (
	Version20241105 = mcpversion.V20241105 // handshake era
	Version20250326 = mcpversion.V20250326 // handshake era
	Version20250618 = mcpversion.V20250618 // handshake era
	Version20251125 = mcpversion.V20251125 // handshake era, the last
	Version20260728 = mcpversion.V20260728 // stateless era
)

// LatestVersion is the newest version plainmcp speaks: the stateless era.
const LatestVersion = Version20260728

// LatestHandshakeVersion is the version initialize asks for unless pinned.
const LatestHandshakeVersion = Version20251125

// SupportedVersions lists the versions plainmcp speaks, oldest first.
// The session reads lists of its own: changing this one changes nothing.
var SupportedVersions = mcpversion.Supported()

// handshakeVersions are the versions negotiated by initialize.
var handshakeVersions = mcpversion.Supported()[:4]

// statelessVersions are the versions carried per request.
var statelessVersions = mcpversion.Supported()[4:]

// eraOf says which era a version belongs to.
func eraOf(version string) Era {
	if slices.Contains(statelessVersions, version) {
		return EraStateless
	}
	return EraHandshake
}
