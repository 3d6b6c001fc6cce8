# Two commands for a fresh Debian / Raspberry Pi OS machine:
#   make demo   sets everything up and runs the appliance
#   make test   sets everything up and runs the tests
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# System packages: a real MQTT broker for the network tests; shellcheck and systemd-analyze for the installer and units.
APT_PACKAGES := mosquitto shellcheck systemd

.PHONY: demo test venv system clean model

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
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

system:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
