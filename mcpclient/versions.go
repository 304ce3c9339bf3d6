package mcpclient

import "slices"

// Protocol versions plainmcp speaks.
const (
	Version20241105 = "2024-11-05" // handshake era
	Version20250326 = "2025-03-26" // handshake era
	Version20250618 = "2025-06-18" // handshake era
	Version20251125 = "2025-11-25" // handshake era, the last
	Version20260728 = "2026-07-28" // stateless era
)

// LatestVersion is the newest version plainmcp speaks: the stateless era.
const LatestVersion = Version20260728

// LatestHandshakeVersion is the version initialize asks for unless pinned.
const LatestHandshakeVersion = Version20251125

// SupportedVersions lists the versions plainmcp speaks, oldest first.
var SupportedVersions = []string{Version20241105, Version20250326, Version20250618, Version20251125, Version20260728}

// handshakeVersions are the versions negotiated by initialize.
var handshakeVersions = SupportedVersions[:4]

// statelessVersions are the versions carried per request.
var statelessVersions = SupportedVersions[4:]

// eraOf says which era a version belongs to.
func eraOf(version string) Era {
	if slices.Contains(statelessVersions, version) {
		return EraStateless
	}
	return EraHandshake
}
