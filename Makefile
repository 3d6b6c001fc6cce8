# Two commands for a fresh Debian / Raspberry Pi OS machine with only python3, make and git:
#   make demo   sets everything up and runs the appliance
#   make test   sets everything up and runs the tests
# Each installs what it needs with apt-get (with sudo when not root) and pip.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# System packages: a real MQTT broker for the network tests; shellcheck and systemd-analyze for the installer and units;
# Xvfb and xdotool for the test that types into a real `bunco table` window; chromium and its driver for the hostess page.
APT_PACKAGES := mosquitto shellcheck systemd xvfb xdotool chromium chromium-driver
# procps: /bin/kill, which mosquitto.service's ExecReload runs (systemd-analyze verify checks it; minbase lacks it).
APT_PACKAGES += procps
# python3 -m venv needs ensurepip, which Debian ships apart as python3.X-venv for the running python.
VENV_PACKAGE = python$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')-venv
# The Debian releases `make fresh-check` tries.
SUITES ?= bookworm trixie

# Waits for dpkg's lock (a fresh Pi's first-boot upgrades, another apt) instead of failing at once.
APT_GET = $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600

# apt_install WHY, PACKAGES: one line saying what is installed and why, then apt-get (quiet unless it fails).
define apt_install
	@echo "installing $(2) with apt-get$(if $(SUDO), (sudo)): $(1)"
	@command -v apt-get >/dev/null || { echo "no apt-get here: install $(2) yourself, then run make again"; exit 2; }
	@$(APT_GET) update -qq
	@$(APT_GET) install -y -qq $(2) >/dev/null
endef

.PHONY: demo test venv venv-package system system-packages fresh-check clean model

demo: venv
	$(BIN)/bunco demo

test: system venv
	$(BIN)/python -m pytest -q

# Rebuild the dice reader's networks (vision/models/*/*.onnx) from ../shared/dice and drawn dice.
model: venv
	$(BIN)/pip install -q -e '.[train]'
	$(BIN)/python -m vision.training.train

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import ensurepip' 2>/dev/null || $(MAKE) --no-print-directory venv-package
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

venv-package:
	$(call apt_install,$(PYTHON) -m venv needs its ensurepip,$(VENV_PACKAGE))

system:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then $(MAKE) --no-print-directory system-packages PACKAGES="$$missing"; fi

system-packages:
	$(call apt_install,the tests need them,$(strip $(PACKAGES)))

# A minbase Debian chroot per suite, a clone with no origin and no ../shared, the two commands above
# (tools/fresh-check; 10-20 minutes a suite, as root). Not part of `make test`.
fresh-check:
	$(SUDO) env $(if $(FRESH_CHECK_COMMIT),FRESH_CHECK_COMMIT=$(FRESH_CHECK_COMMIT)) nice -n 19 tools/fresh-check $(SUITES)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
