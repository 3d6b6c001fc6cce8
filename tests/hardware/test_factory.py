"""Choosing the pin factory: fake on request, mock with one log line when there is no GPIO chip."""

from __future__ import annotations

import logging

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware import factory as hwfactory


@pytest.fixture
def no_global_factory(monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", None)


def test_fake_gives_a_pwm_capable_mock_factory(caplog) -> None:
    caplog.set_level(logging.INFO, logger="hardware.factory")
    f = hwfactory.make_pin_factory(fake=True)
    try:
        assert isinstance(f, MockFactory) and f.pin_class is MockPWMPin
        assert hwfactory.is_mock(f)
        assert "--fake-gpio" in caplog.text
    finally:
        f.close()


def test_no_gpio_chip_falls_back_with_one_log_line(monkeypatch, tmp_path, caplog, no_global_factory) -> None:
    monkeypatch.setattr(hwfactory, "GPIOCHIP_GLOB", str(tmp_path / "gpiochip*"))
    caplog.set_level(logging.DEBUG, logger="hardware.factory")
    f = hwfactory.make_pin_factory(fake=False)
    try:
        assert isinstance(f, MockFactory)
        records = [r for r in caplog.records if r.name == "hardware.factory"]
        assert len(records) == 1
        assert "no GPIO chip" in records[0].getMessage()
        assert Device.pin_factory is None  # the global was not touched
    finally:
        f.close()


def test_chip_present_but_no_driver_warns_and_falls_back(monkeypatch, tmp_path, caplog, no_global_factory) -> None:
    (tmp_path / "gpiochip0").touch()
    monkeypatch.setattr(hwfactory, "GPIOCHIP_GLOB", str(tmp_path / "gpiochip*"))

    def no_driver():
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_driver))
    caplog.set_level(logging.INFO, logger="hardware.factory")
    f = hwfactory.make_pin_factory(fake=False)
    try:
        assert isinstance(f, MockFactory)
        (record,) = [r for r in caplog.records if r.name == "hardware.factory"]
        assert record.levelno == logging.WARNING
        assert "gpiochip0" in record.getMessage() and "lgpio" in record.getMessage()
    finally:
        f.close()


def test_chip_present_uses_gpiozeros_default(monkeypatch, tmp_path, no_global_factory) -> None:
    (tmp_path / "gpiochip4").touch()
    monkeypatch.setattr(hwfactory, "GPIOCHIP_GLOB", str(tmp_path / "gpiochip*"))
    chosen = MockFactory()  # stands in for the LGPIOFactory gpiozero would pick on a Pi
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(lambda: chosen))
    try:
        assert hwfactory.make_pin_factory(fake=False) is chosen
    finally:
        chosen.close()
