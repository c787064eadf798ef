// The RemoteDesktop portal (org.freedesktop.portal.RemoteDesktop on the session bus) for an
// EIS socket: the calls and the Request objects' Response signals, nothing decided here
// (HostLogic's PortalRemoteDesktopFlow decides). GIO's GDBus is loaded at run time (dlopen,
// like the notification shim): no -dev package at build time, and a host without GLib or a
// session bus says so in one line.
//
// rp_open makes a connection of its own to the session bus: the portal's session lives as long
// as that connection, so it stays open while the host injects and rp_free ends it. Every
// Response signal of org.freedesktop.portal.Request, from any sender on any path, is queued
// (at most 32; more are dropped and counted) with its sender and path, for the flow to check:
// only the portal's unique name on the awaited path counts. Not thread-safe: one thread.
#ifndef REMOTION_PORTAL_H
#define REMOTION_PORTAL_H

#include <stddef.h>
#include <stdint.h>

typedef struct rp_portal rp_portal;

/// One Response signal: its sender (a unique name), its path, its code and the results the
/// flow reads (empty strings and has_devices 0 when absent or of another type).
typedef struct {
    char sender[256];
    char path[512];
    uint32_t code;
    char session_handle[512];
    char restore_token[520];
    uint32_t devices;
    int has_devices;
} rp_response;

/// Connects to the session bus at `address` (a D-Bus address: the caller reads it from its
/// environment). NULL when GIO cannot be loaded or the bus does not answer; `why` says which.
rp_portal *rp_open(const char *address, char *why, size_t why_size);

/// This connection's unique name (":1.42").
const char *rp_unique_name(rp_portal *p);

/// Asks org.freedesktop.portal.Desktop (activated if it is not running) for the RemoteDesktop
/// interface's version and the unique name that owns the portal. 0 when it answers; -1 with
/// `why` (no portal, no RemoteDesktop interface).
int rp_portal_info(rp_portal *p, char *owner, size_t owner_size, uint32_t *version, char *why, size_t why_size);

/// The three calls that answer through a Request: 0 with the Request's path in `handle`,
/// else -1 with the D-Bus error in `why`. `restore_token` NULL: none passed.
int rp_create_session(rp_portal *p, const char *owner, const char *handle_token, const char *session_token,
                      char *handle, size_t handle_size, char *why, size_t why_size);
int rp_select_devices(rp_portal *p, const char *owner, const char *session, const char *handle_token, uint32_t types,
                      uint32_t persist_mode, const char *restore_token, char *handle, size_t handle_size, char *why,
                      size_t why_size);
int rp_start(rp_portal *p, const char *owner, const char *session, const char *handle_token, char *handle,
             size_t handle_size, char *why, size_t why_size);

/// ConnectToEIS: the socket (close-on-exec) in `fd`, 0; else -1 with `why`.
int rp_connect_to_eis(rp_portal *p, const char *owner, const char *session, int *fd, char *why, size_t why_size);

/// The next queued Response, waiting up to `timeout_ms` for one: 1 when `out` holds one, 0 when
/// none came in time.
int rp_next_response(rp_portal *p, int timeout_ms, rp_response *out);

/// Response signals dropped because the queue was full.
uint64_t rp_dropped_responses(rp_portal *p);

/// Closes the portal's session (errors ignored: the portal may have closed it).
void rp_close_session(rp_portal *p, const char *owner, const char *session);

/// Closes the connection (the portal ends its session with it).
void rp_free(rp_portal *p);

#endif
