"""A phone asking to pair, as the page does it, without a browser (stdlib only, so the
system python that carries python3-dbus can use it too): redeem a pairing link, then poll
until the person at the computer answers. Shared by the consent stages (terminal view,
desktop notification)."""
import json
import urllib.error
import urllib.parse
import urllib.request

from host_process import host_tls, wait

# The host's certificate comes from its own local CA: the phone trusts it after the CA
# download; a test skips that step.
CTX = host_tls()


def post(origin, path, body):
    req = urllib.request.Request(origin + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Origin": origin})
    try:
        with urllib.request.urlopen(req, context=CTX, timeout=5) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, {}


def ask(url, name):
    """A phone redeems the link: (origin, ticket, code)."""
    origin, fragment = url.split("#", 1)
    origin = origin.rstrip("/")
    secret = urllib.parse.parse_qs(fragment)["pair"][0]
    status, body = post(origin, "/api/pair", {"secret": secret, "name": name})
    return origin, body.get("ticket", ""), body.get("code", "") if status == 202 else ""


def poll(origin, ticket):
    """202 while it waits; 200 accepted (its credential handed over, once); 403 refused."""
    return post(origin, "/api/pair/wait", {"ticket": ticket})[0]


def answered(origin, ticket, timeout=5.0):
    """The first answer other than 'still waiting' within `timeout` s (else 202)."""
    return wait(lambda: (lambda s: s if s != 202 else None)(poll(origin, ticket)), timeout, 0.1) or 202
