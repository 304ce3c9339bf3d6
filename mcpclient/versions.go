package mcpclient

import (
	"slices"

	"github.com/plainmcp/plainmcp/internal/mcpversion"
)

// LatestVersion is the newest version plainmcp speaks: the stateless era's
// 2026-07-28. The others, oldest first: 2024-11-05, 2025-03-26, 2025-06-18
// and 2025-11-25 (the handshake era's last); Options.ProtocolVersion pins
// any of them by that string.
const LatestVersion = mcpversion.V20260728

// latestHandshakeVersion is the version initialize asks for unless pinned.
const latestHandshakeVersion = mcpversion.V20251125

// supportedVersions lists the versions plainmcp speaks, oldest first.
var supportedVersions = mcpversion.Supported()

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
