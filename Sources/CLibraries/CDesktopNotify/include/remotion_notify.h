// Desktop notifications through the session bus's org.freedesktop.Notifications, with
// GIO's GDBus loaded at run time (dlopen, like the WebRTC shim: no -dev package at build
// time, and a host without GLib or a session bus runs without notifications).
//
// rn_notifier_open connects to the session bus (DBUS_SESSION_BUS_ADDRESS, else the
// user's runtime directory) and runs a thread with a GLib main loop of its own that
// delivers ActionInvoked and NotificationClosed to the callbacks (on that thread), from the
// notification server alone: the signals are subscribed with the unique name that owns
// org.freedesktop.Notifications (GetNameOwner, then NameOwnerChanged), never from any
// sender, and the server callback is told each time that owner changes (ids are the
// server's: a restarted one hands them out again). Any other program on the session bus
// can emit a signal; only the bus sets a message's sender.
// rn_notifier_show and rn_notifier_dismiss call the server synchronously (GDBus is
// thread-safe) and may be called from any one thread at a time.
#ifndef REMOTION_NOTIFY_H
#define REMOTION_NOTIFY_H

#include <stddef.h>
#include <stdint.h>

typedef struct rn_notifier rn_notifier;

/// The user chose `action` (the key given to rn_notifier_show) on notification `id` of the
/// server `server` (its unique name).
typedef void (*rn_action_fn)(void *context, const char *server, uint32_t id, const char *action);
/// Notification `id` closed (1 expired, 2 dismissed by the user, 3 closed by a call, 4 other).
typedef void (*rn_closed_fn)(void *context, const char *server, uint32_t id, uint32_t reason);
/// The notification server is now `server` (a unique name; "" none). Once at the start when
/// one runs, then at every change; before any signal of the new server.
typedef void (*rn_server_fn)(void *context, const char *server);

/// NULL when GIO cannot be loaded or no session bus answers; `why` then says which.
rn_notifier *rn_notifier_open(rn_action_fn on_action, rn_closed_fn on_closed, rn_server_fn on_server,
                              void *context, char *why, size_t why_size);

/// Shows a notification; `actions` holds key, label pairs (`action_count` strings in
/// all), sent to the server's unique name (none running: D-Bus activation starts one). Its
/// id, with the server that gave it in `server`; 0 when none did (`why` says why).
/// `timeout_ms` 0: it stays until answered or closed.
uint32_t rn_notifier_show(rn_notifier *n, const char *app_name, const char *summary, const char *body,
                          const char *const *actions, size_t action_count, int32_t timeout_ms,
                          char *server, size_t server_size, char *why, size_t why_size);

/// Closes notification `id` of `server` (answered elsewhere, or its request expired).
/// Errors ignored (a server gone away has closed it).
void rn_notifier_dismiss(rn_notifier *n, const char *server, uint32_t id);

/// Stops the thread and closes the connection. After it returns no callback runs.
void rn_notifier_free(rn_notifier *n);

#endif
