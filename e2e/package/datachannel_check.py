#!/usr/bin/env python3
"""A phone's page pairs with a host installed from the .deb (scripts/lib/package-datachannel.sh
runs it beside the host in Debian 13's root) and reaches it over WebRTC data channels: the
real page in headless Chromium, the person at the computer accepting it (e2e/web/consent.py,
started by the caller), then a press of A sent on the data channel's control lane that the host
(--inject log) logs as a left click down and up. Prints "N passed, N failed".

usage: datachannel_check.py --url PAIRING_URL --profile DIR --host-out FILE"""
import argparse, os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web"))
from page_harness import browser, check, results, state, tap, wait   # noqa: E402
from selenium.webdriver.common.by import By                          # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    for a in ("--url", "--profile", "--host-out"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    d = browser(args.profile)
    try:
        d.get(args.url)
        wait(lambda: state(d).get("screen") == "pair", 20)
        d.find_element(By.ID, "pair-go").click()
        st = wait(lambda: state(d).get("status") == "connected" and state(d), 30)
        check("the page paired and connected over the data channels", st and st.get("transport") == "webrtc", state(d))
        tap(d, '[data-pane=pointer] [data-button="A"]')
        host_out = lambda: open(args.host_out, errors="replace").read()
        check("A pressed on the page reaches the host in the root: a left click down and up",
              wait(lambda: '"button":"left","state":"up"' in host_out(), 10), host_out()[-400:])
    finally:
        d.quit()
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    sys.exit(0 if results and all(results) else 1)


if __name__ == "__main__":
    main()
