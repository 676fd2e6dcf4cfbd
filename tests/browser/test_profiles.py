"""The profile page (/me) in Chromium: a profile made on one device, a seat it takes,
a passkey added with Chromium's virtual authenticator (CDP `WebAuthn`), and a second
device signing in with that passkey (synced to it, as a phone's passkeys are), seeing
its tables and continuing at one; a third device signs in with a one-time code.

Passkeys need a secure page whose host is a name: the pages are opened at
http://localhost, not 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    CDPSession,
    ConsoleMessage,
    Page,
    expect,
)

from tests.browser.conftest import ServerThread
from tests.waiting import patience


class Device:
    """A browser context with one page, a virtual authenticator, and no script errors;
    `options`: the context's (a phone's viewport and touch), beside a 1000×800 screen."""

    def __init__(self, browser: Browser, server: ServerThread, **options: Any) -> None:
        screen = {"viewport": {"width": 1000, "height": 800}}
        self.context: BrowserContext = browser.new_context(**(screen | options))
        self.context.set_default_timeout(patience(15_000))
        self.page: Page = self.context.new_page()
        self.base = f"http://localhost:{server.port}"
        self.problems: list[str] = []
        self.signed_out = False
        """Whether the server may refuse this device's secret now (401 is then no problem)."""
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("console", self._console)
        self.cdp: CDPSession = self.context.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable")
        options = {
            "protocol": "ctap2",
            "transport": "internal",
            "hasResidentKey": True,
            "hasUserVerification": True,
            "isUserVerified": True,
            "automaticPresenceSimulation": True,
        }
        added = self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
        self.authenticator: str = added["authenticatorId"]

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and not (self.signed_out and "401" in message.text):
            self.problems.append(message.text)

    def open_me(self) -> None:
        self.page.goto(f"{self.base}/me")

    def passkeys(self) -> list[dict[str, Any]]:
        """The passkeys on this device's authenticator."""
        found = self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})
        return list(found["credentials"])

    def sync(self, credential: dict[str, Any]) -> None:
        """Put a passkey on this device's authenticator, as a passkey manager syncs one."""
        self.cdp.send(
            "WebAuthn.addCredential",
            {"authenticatorId": self.authenticator, "credential": credential},
        )

    def secret(self) -> str:
        return str(
            self.page.evaluate("JSON.parse(localStorage.getItem('pitkit.profile.v1')).secret")
        )

    def close(self) -> None:
        self.context.close()
        assert not self.problems, self.problems


@pytest.fixture
def devices(browser: Browser, server: ServerThread) -> Iterator[list[Device]]:
    made: list[Device] = []
    yield made
    for device in made:
        device.close()


def test_a_profile_signs_in_on_another_device_with_a_passkey_or_a_code(
    browser: Browser, server: ServerThread, devices: list[Device]
) -> None:
    laptop = Device(browser, server)
    devices.append(laptop)
    laptop.open_me()
    page = laptop.page
    page.fill("#make-name", "Penny")
    page.click("#make-form button[type=submit]")
    expect(page.locator("#profile-name")).to_have_value("Penny")
    expect(page.locator("#table-list")).to_contain_text("No tables yet")

    # The profile takes a seat (as the table page will, once it knows profiles).
    table, invite = server.create("pitty-pat", [None, "random"])
    token = invite.split("#token=")[1]
    sat = server.http.post(
        f"/api/tables/{table}/profile-seat",
        json={"token": token},
        headers={"authorization": f"Bearer {laptop.secret()}"},
    )
    assert sat.status_code == 200, sat.text

    page.click("#add-passkey")
    expect(page.locator("#passkey-list")).to_contain_text("A passkey added")
    keys = laptop.passkeys()
    assert len(keys) == 1 and keys[0]["isResidentCredential"] and keys[0]["rpId"] == "localhost"

    phone = Device(browser, server)
    devices.append(phone)
    phone.sync(keys[0])
    phone.open_me()
    phone.page.click("#passkey-sign-in")
    expect(phone.page.locator("#profile-name")).to_have_value("Penny")
    row = phone.page.locator(f"#table-list [data-table='{table}']")
    expect(row).to_contain_text("Pitty Pat")
    expect(row).to_contain_text("seat 1 of 2")
    row.get_by_role("button", name="Continue here").click()
    phone.page.wait_for_url(f"**/t/{table}#token=*")
    # The table page holds the seat with the secret made for this device.
    phone.page.wait_for_function("() => window.pitkit && window.pitkit.state.seat === 0")

    # A third device types a one-time code shown on the laptop.
    page.click("#show-code")
    code = page.locator("#one-time .code").inner_text()
    tablet = Device(browser, server)
    devices.append(tablet)
    tablet.open_me()
    tablet.page.fill("#code", code.lower())
    tablet.page.click("#code-form button[type=submit]")
    expect(tablet.page.locator("#profile-name")).to_have_value("Penny")
    expect(tablet.page.locator("#device-list li")).to_have_count(3)
    # The laptop signs the tablet out; the tablet finds itself signed out on its next look.
    page.reload()
    expect(page.locator("#device-list li")).to_have_count(3)
    page.locator("#device-list li", has_text="with a code").get_by_role("button").click()
    expect(page.locator("#device-list li")).to_have_count(2)
    tablet.signed_out = True
    tablet.page.reload()
    expect(tablet.page.locator("#make")).to_be_visible()
