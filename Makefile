# Lectern: `make run` builds and serves a demo site, `make test` runs every test.
SHELL := /bin/bash
SWIFT ?= swift
DEB_PACKAGES := libsqlite3-dev libssl-dev libcurl4-openssl-dev libcmark-gfm-dev \
                libcmark-gfm-extensions-dev libdeflate-dev libpsl-dev publicsuffix pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO ?= demo

.PHONY: run build debug test deps test-tools clean bench dist dist-check validate-deploy soak chaos

## Install the Debian packages Lectern links against (only the missing ones).
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

## The release binary carries the Swift runtime and Foundation (--static-swift-stdlib): it runs on
## a machine without the toolchain (as deploy/Containerfile builds it) and starts in 16 ms, not 22.
build: deps
	$(SWIFT) build -c release --static-swift-stdlib --product lectern

debug: deps
	$(SWIFT) build --product lectern

## Build, create ./demo if absent, then serve it on http://127.0.0.1:8080 (rebuilding on changes).
run: build
	@[ -f $(DEMO)/lectern.yml ] || .build/release/lectern init $(DEMO)
	.build/release/lectern serve --site $(DEMO) --watch

## Tools the tests use: nginx, Caddy and certbot (the shipped front configs), third-party signature
## implementations (HTTP signatures; apsig for FEP-8b32 object integrity proofs), an independent
## ActivityPub peer, mf2py and ronkyuu (microformats, Webmention), and rfc8785 (canonical JSON).
test-tools:
	@missing=""; for p in nginx caddy certbot python3-certbot-nginx; do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	[ -z "$$missing" ] || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; }
	@python3 -c "import cryptography, httpsig, http_message_signatures, html5lib, bovine, apsig, mf2py, ronkyuu, rfc8785, aiosmtpd" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check cryptography httpsig http-message-signatures html5lib bovine==0.5.19 apsig==0.6.0 mf2py==2.0.2 ronkyuu==0.9 rfc8785==0.1.4 aiosmtpd==1.4.6

## Build everything (our own code must be warning-free), then run the whole suite: unit tests, then
## the end-to-end suites one at a time (each starts real servers and measures how fast they serve;
## dozens starting at once on two cores would only measure each other), then the stall test alone.
test: deps test-tools
	$(SWIFT) build --build-tests 2>&1 | tee .build-test.log | grep -E "error|warning: |Compiling Lectern|Build complete" | grep -v "/.build/checkouts/" ; test $${PIPESTATUS[0]} -eq 0
	@! grep -E "^/[^ ]*/(Sources|Tests)/[^ ]*: warning:" .build-test.log | grep -v "/\.build/" | sort -u | grep . \
	  || { echo "error: the warnings above are in our code; fix them"; exit 1; }
	$(SWIFT) test --skip-build --skip LecternServerTests
	Tests/run-end-to-end
	LECTERN_STALL_TEST=1 $(SWIFT) test --skip-build --filter StallTests
	.build/debug/lectern-soak soak --short --lectern .build/debug/lectern --work .build/soak-test
	.build/debug/lectern-soak chaos --short --lectern .build/debug/lectern --work .build/soak-test --seed $(CHAOS_SEED)
	$(MAKE) --no-print-directory interop LECTERN_BUILT=1
	$(MAKE) --no-print-directory real-servers
	python3 -B Tests/RealCorpus/run --lectern .build/debug/lectern
	deploy/validate
	docs/check-architecture
	$(MAKE) --no-print-directory dist-check BINARY=.build/debug/lectern

## Interoperability with an independent ActivityPub implementation (bovine, from PyPI): the real
## `lectern serve` and a bovine peer on 127.0.0.1 follow, publish, reply, edit, delete, digest and
## replay every fixture in Tests/Fixtures/activities (docs/interop.md). Builds the debug binary
## first, unless LECTERN_BUILT is set (`make test` has just built it).
.PHONY: interop
interop: test-tools
	$(if $(LECTERN_BUILT),,$(SWIFT) build --product lectern)
	python3 -B Tests/Interop --lectern .build/debug/lectern

## Interoperability with real servers (Tests/RealServers, docs/real-servers.md): `lectern serve` as
## https://blog.test and GoToSocial as https://gts.test, Takahē as https://takahe.test, behind nginx
## with a local CA trusted system-wide and the names in /etc/hosts (root; restored at exit).
## GOTOSOCIAL_BIN names a GoToSocial binary, TAKAHE_SRC and TAKAHE_VENV a Takahē checkout and its
## venv; each server without them prints SKIP. `make test` runs it on the debug binary.
.PHONY: real-servers
real-servers:
	python3 -B Tests/RealServers all --lectern .build/debug/lectern

## A stripped, self-contained archive and a .deb for servers without the Swift toolchain:
## dist/lectern-VERSION-linux-ARCH.tar.gz and dist/lectern_VERSION_ARCH.deb (deploy/dist,
## docs/deploy.md). Builds the release binary first, unless given one: make dist BINARY=path.
BINARY ?=
dist: $(if $(BINARY),,build)
	deploy/dist $(or $(BINARY),.build/release/lectern) dist

## The .deb installed, run as its unit would, fronted by nginx and Caddy, then purged
## (deploy/check-package; as root, or with sudo). `make test` runs it with the debug binary.
dist-check: test-tools $(if $(BINARY),,build)
	deploy/check-package $(or $(BINARY),.build/release/lectern)

## nginx -t and caddy validate on the shipped front configs, unchanged (deploy/validate).
validate-deploy: test-tools
	deploy/validate

## Proof under fire (docs/reliability.md), on the release binary: `make soak` puts SOAK_MINUTES of
## mixed load (readers, crawlers, link-preview stampedes, inbox traffic from 300 actors on 30 servers,
## a post and an edit a minute) on a 1,000-post site; `make chaos` fans out to 3,000 inboxes that
## fail at random (seeded: CHAOS_SEED replays a run) while `lectern serve` is killed with SIGKILL 3
## times. Each prints its figures, writes them to bench/work/, and fails if a goal is missed.
## `make test` runs a one-minute form of each on the debug binary.
SOAK_MINUTES ?= 10
CHAOS_SEED ?= 1
soak chaos: build
	set -o pipefail; $(SWIFT) build -c release --static-swift-stdlib --product lectern-soak 2>&1 | tail -1
	@mkdir -p bench/work
	.build/release/lectern-soak $@ --lectern .build/release/lectern --work bench/work/$@ --report bench/work/$@.md \
	  $(if $(filter soak,$@),--minutes $(SOAK_MINUTES),--seed $(CHAOS_SEED))

bench: build
	bench/build
	bench/serve
	bench/signatures
	bench/stampede
	bench/inbox
	bench/fanout
	bench/stall
	bench/comments
	bench/search
	bench/search-flood

clean:
	rm -rf .build .build-test.log

## Coverage-guided fuzzing (docs/fuzzing.md): builds Fuzz/ (its own package) and runs each
## libFuzzer target for FUZZ_SECONDS (default 60), merging new inputs into Fuzz/Corpus/.
.PHONY: fuzz
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) Fuzz/fuzz.sh run
