// See include/remotion_notify.h. GLib, GObject and GIO are opened RTLD_LOCAL at the first
// rn_notifier_open and never closed. Declared here by hand, as the stable 2.x ABI from
// their public headers: opaque objects as void *, GError's prefix, the enum values passed.
#include "remotion_notify.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { uint32_t domain; int code; char *message; } rn_gerror;   // GError
typedef void (*rn_signal_fn)(void *connection, const char *sender, const char *path, const char *interface,
                             const char *signal, void *parameters, void *user_data);

enum { G_BUS_TYPE_SESSION = 2, G_DBUS_CALL_FLAGS_NONE = 0, G_DBUS_SIGNAL_FLAGS_NONE = 0 };

static struct {
    void (*g_error_free)(rn_gerror *);
    void *(*g_variant_new)(const char *format, ...);
    void (*g_variant_get)(void *value, const char *format, ...);
    void *(*g_variant_new_array)(const void *child_type, void *const *children, size_t n);
    void (*g_variant_unref)(void *value);
    const char *(*g_variant_get_type_string)(void *value);
    void *(*g_main_context_new)(void);
    void (*g_main_context_push_thread_default)(void *context);
    void (*g_main_context_pop_thread_default)(void *context);
    void (*g_main_context_unref)(void *context);
    void *(*g_main_loop_new)(void *context, int is_running);
    void (*g_main_loop_run)(void *loop);
    void (*g_main_loop_quit)(void *loop);
    void (*g_main_loop_unref)(void *loop);
    void *(*g_idle_source_new)(void);
    void (*g_source_set_callback)(void *source, int (*fn)(void *), void *data, void (*notify)(void *));
    unsigned (*g_source_attach)(void *source, void *context);
    void (*g_source_unref)(void *source);
    void (*g_object_unref)(void *object);
    void *(*g_bus_get_sync)(int bus_type, void *cancellable, rn_gerror **error);
    void *(*g_dbus_connection_call_sync)(void *connection, const char *bus_name, const char *path,
                                         const char *interface, const char *method, void *parameters,
                                         const void *reply_type, int flags, int timeout_ms,
                                         void *cancellable, rn_gerror **error);
    unsigned (*g_dbus_connection_signal_subscribe)(void *connection, const char *sender, const char *interface,
                                                   const char *member, const char *path, const char *arg0,
                                                   int flags, rn_signal_fn callback, void *user_data,
                                                   void (*free_data)(void *));
    void (*g_dbus_connection_signal_unsubscribe)(void *connection, unsigned id);
} api;

typedef struct { const char *name; size_t offset; } symbol;
#define SYM(field) { #field, offsetof(__typeof__(api), field) }
static const symbol glib[] = {
    SYM(g_error_free), SYM(g_variant_new), SYM(g_variant_get), SYM(g_variant_new_array), SYM(g_variant_unref), SYM(g_variant_get_type_string),
    SYM(g_main_context_new), SYM(g_main_context_push_thread_default), SYM(g_main_context_pop_thread_default),
    SYM(g_main_context_unref), SYM(g_main_loop_new), SYM(g_main_loop_run), SYM(g_main_loop_quit),
    SYM(g_main_loop_unref), SYM(g_idle_source_new), SYM(g_source_set_callback), SYM(g_source_attach),
    SYM(g_source_unref),
};
static const symbol gobject[] = { SYM(g_object_unref) };
static const symbol gio[] = {
    SYM(g_bus_get_sync), SYM(g_dbus_connection_call_sync), SYM(g_dbus_connection_signal_subscribe),
    SYM(g_dbus_connection_signal_unsubscribe),
};
static const struct { const char *soname; const symbol *symbols; size_t count; } libraries[] = {
    { "libglib-2.0.so.0", glib, sizeof glib / sizeof *glib },
    { "libgobject-2.0.so.0", gobject, sizeof gobject / sizeof *gobject },
    { "libgio-2.0.so.0", gio, sizeof gio / sizeof *gio },
};
static int loaded;
static char failure[160];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries; i++) {
        void *handle = dlopen(libraries[i].soname, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            snprintf(failure, sizeof failure, "%s not found", libraries[i].soname);
            return;
        }
        for (size_t j = 0; j < libraries[i].count; j++) {
            void *function = dlsym(handle, libraries[i].symbols[j].name);
            if (function == NULL) {
                snprintf(failure, sizeof failure, "%s has no %s", libraries[i].soname, libraries[i].symbols[j].name);
                return;
            }
            // POSIX guarantees a function pointer round-trips through dlsym's void *.
            *(void **)((char *)&api + libraries[i].symbols[j].offset) = function;
        }
    }
    loaded = 1;
}

static void say(char *why, size_t size, const char *what, rn_gerror *error) {
    if (why && size) snprintf(why, size, "%s%s%s", what, error ? ": " : "", error ? error->message : "");
    if (error) api.g_error_free(error);
}

struct rn_notifier {
    void *connection;
    void *context;
    void *loop;
    unsigned owner_watch;          // NameOwnerChanged for the service, from the bus itself
    unsigned subscriptions[2];     // the server's two signals, from its unique name only (0: none)
    rn_action_fn on_action;
    rn_closed_fn on_closed;
    rn_server_fn on_server;
    void *user;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t started;
    int running;
    char owner[256];               // the server's unique name, "" none: written on the thread, under lock
};

static const char *const service = "org.freedesktop.Notifications";
static const char *const object = "/org/freedesktop/Notifications";
static const char *const bus = "org.freedesktop.DBus";
static const char *const signals[2] = { "ActionInvoked", "NotificationClosed" };

static void on_signal(void *connection, const char *sender, const char *path, const char *interface,
                      const char *signal, void *parameters, void *user_data) {
    (void)connection; (void)path; (void)interface;
    rn_notifier *n = user_data;
    uint32_t id = 0, reason = 0;
    const char *action = NULL;
    const char *type = api.g_variant_get_type_string(parameters);
    if (sender == NULL) return;
    if (strcmp(signal, "ActionInvoked") == 0 && strcmp(type, "(us)") == 0) {
        api.g_variant_get(parameters, "(u&s)", &id, &action);
        n->on_action(n->user, sender, id, action);
    } else if (strcmp(signal, "NotificationClosed") == 0 && strcmp(type, "(uu)") == 0) {
        api.g_variant_get(parameters, "(uu)", &id, &reason);
        n->on_closed(n->user, sender, id, reason);
    }
}

/// The server is now `owner` ("" none): on the thread. Its signals are taken from that
/// unique name alone (only the bus can set a message's sender; a well-known name as the
/// sender is not safe before GLib 2.80.1, CVE-2024-34397), and the callback is told.
static void follow(rn_notifier *n, const char *owner) {
    if (strlen(owner) >= sizeof n->owner) owner = "";   // no bus name is that long
    pthread_mutex_lock(&n->lock);
    int same = strcmp(n->owner, owner) == 0;
    if (!same) snprintf(n->owner, sizeof n->owner, "%s", owner);
    pthread_mutex_unlock(&n->lock);
    if (same) return;
    for (int i = 0; i < 2; i++) {
        if (n->subscriptions[i]) api.g_dbus_connection_signal_unsubscribe(n->connection, n->subscriptions[i]);
        n->subscriptions[i] = 0;
        if (*owner)
            n->subscriptions[i] = api.g_dbus_connection_signal_subscribe(
                n->connection, owner, service, signals[i], object, NULL, G_DBUS_SIGNAL_FLAGS_NONE, on_signal, n, NULL);
    }
    n->on_server(n->user, owner);
}

static void on_owner_changed(void *connection, const char *sender, const char *path, const char *interface,
                             const char *signal, void *parameters, void *user_data) {
    (void)connection; (void)sender; (void)path; (void)interface; (void)signal;
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (strcmp(api.g_variant_get_type_string(parameters), "(sss)") != 0) return;
    api.g_variant_get(parameters, "(&s&s&s)", &name, &old_owner, &new_owner);
    if (strcmp(name, service) == 0) follow(user_data, new_owner);
}

/// The service's unique name now ("" none) into `owner`; with `start`, D-Bus activation
/// first (a server that starts on demand). 0 when it has none.
static int ask_owner(void *connection, int start, char *owner, size_t size) {
    rn_gerror *error = NULL;
    void *reply;
    if (start) {
        reply = api.g_dbus_connection_call_sync(connection, bus, "/org/freedesktop/DBus", bus, "StartServiceByName",
                                                api.g_variant_new("(su)", service, (uint32_t)0), "(u)",
                                                G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &error);
        if (reply) api.g_variant_unref(reply);
        if (error) { api.g_error_free(error); error = NULL; }
    }
    reply = api.g_dbus_connection_call_sync(connection, bus, "/org/freedesktop/DBus", bus, "GetNameOwner",
                                            api.g_variant_new("(s)", service), "(s)", G_DBUS_CALL_FLAGS_NONE, 5000,
                                            NULL, &error);
    if (error) api.g_error_free(error);
    const char *name = "";
    if (reply) api.g_variant_get(reply, "(&s)", &name);
    int known = *name && strlen(name) < size;
    snprintf(owner, size, "%s", known ? name : "");
    if (reply) api.g_variant_unref(reply);
    return known;
}

/// Runs once the loop runs: the opener may return.
static int mark_started(void *data) {
    rn_notifier *n = data;
    pthread_mutex_lock(&n->lock);
    n->running = 1;
    pthread_cond_signal(&n->started);
    pthread_mutex_unlock(&n->lock);
    return 0;   // G_SOURCE_REMOVE
}

static void *run(void *data) {
    rn_notifier *n = data;
    // Signals are delivered in the thread-default context of the thread that subscribed.
    api.g_main_context_push_thread_default(n->context);
    // Owner changes first, then the owner now: no change between the two is missed.
    n->owner_watch = api.g_dbus_connection_signal_subscribe(n->connection, bus, bus, "NameOwnerChanged",
                                                            "/org/freedesktop/DBus", service, G_DBUS_SIGNAL_FLAGS_NONE,
                                                            on_owner_changed, n, NULL);
    char owner[256];
    ask_owner(n->connection, 0, owner, sizeof owner);
    follow(n, owner);
    void *idle = api.g_idle_source_new();
    api.g_source_set_callback(idle, mark_started, n, NULL);
    api.g_source_attach(idle, n->context);
    api.g_source_unref(idle);
    api.g_main_loop_run(n->loop);
    api.g_dbus_connection_signal_unsubscribe(n->connection, n->owner_watch);
    for (int i = 0; i < 2; i++)
        if (n->subscriptions[i]) api.g_dbus_connection_signal_unsubscribe(n->connection, n->subscriptions[i]);
    api.g_main_context_pop_thread_default(n->context);
    return NULL;
}

rn_notifier *rn_notifier_open(rn_action_fn on_action, rn_closed_fn on_closed, rn_server_fn on_server, void *context,
                              char *why, size_t why_size) {
    pthread_once(&once, load);
    if (!loaded) { say(why, why_size, failure, NULL); return NULL; }
    rn_gerror *error = NULL;
    void *connection = api.g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (connection == NULL) { say(why, why_size, "no session bus", error); return NULL; }
    rn_notifier *n = calloc(1, sizeof *n);
    if (n == NULL) { api.g_object_unref(connection); say(why, why_size, "out of memory", NULL); return NULL; }
    n->connection = connection;
    n->on_action = on_action;
    n->on_closed = on_closed;
    n->on_server = on_server;
    n->user = context;
    n->context = api.g_main_context_new();
    n->loop = api.g_main_loop_new(n->context, 0);
    pthread_mutex_init(&n->lock, NULL);
    pthread_cond_init(&n->started, NULL);
    if (pthread_create(&n->thread, NULL, run, n) != 0) {
        api.g_main_loop_unref(n->loop); api.g_main_context_unref(n->context); api.g_object_unref(connection);
        free(n);
        say(why, why_size, "cannot start the notification thread", NULL);
        return NULL;
    }
    pthread_mutex_lock(&n->lock);
    while (!n->running) pthread_cond_wait(&n->started, &n->lock);
    pthread_mutex_unlock(&n->lock);
    return n;
}

uint32_t rn_notifier_show(rn_notifier *n, const char *app_name, const char *summary, const char *body,
                          const char *const *actions, size_t action_count, int32_t timeout_ms,
                          char *server, size_t server_size, char *why, size_t why_size) {
    // Sent to the server's unique name, so the id is that server's; none yet: activate one.
    char owner[256];
    pthread_mutex_lock(&n->lock);
    snprintf(owner, sizeof owner, "%s", n->owner);
    pthread_mutex_unlock(&n->lock);
    if (!*owner && !ask_owner(n->connection, 1, owner, sizeof owner)) {
        say(why, why_size, "no notification server on the session bus", NULL);
        return 0;
    }
    if (strlen(owner) >= server_size) { say(why, why_size, "the notification server's name is too long", NULL); return 0; }
    // The actions as a NULL-terminated array for "^as"; the hints an empty a{sv}.
    const char **strv = calloc(action_count + 1, sizeof *strv);
    if (strv == NULL) { say(why, why_size, "out of memory", NULL); return 0; }
    for (size_t i = 0; i < action_count; i++) strv[i] = actions[i];
    void *hints = api.g_variant_new_array("{sv}", NULL, 0);
    void *parameters = api.g_variant_new("(susss^as@a{sv}i)", app_name, (uint32_t)0, "", summary, body,
                                         strv, hints, timeout_ms);
    free(strv);
    rn_gerror *error = NULL;
    void *reply = api.g_dbus_connection_call_sync(n->connection, owner, object, service, "Notify", parameters,
                                                  "(u)", G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &error);
    if (reply == NULL) { say(why, why_size, "the notification server refused it", error); return 0; }
    uint32_t id = 0;
    api.g_variant_get(reply, "(u)", &id);
    api.g_variant_unref(reply);
    snprintf(server, server_size, "%s", owner);
    return id;
}

void rn_notifier_dismiss(rn_notifier *n, const char *server, uint32_t id) {
    rn_gerror *error = NULL;
    void *reply = api.g_dbus_connection_call_sync(n->connection, server, object, service, "CloseNotification",
                                                  api.g_variant_new("(u)", id), NULL, G_DBUS_CALL_FLAGS_NONE, 5000,
                                                  NULL, &error);
    if (reply) api.g_variant_unref(reply);
    if (error) api.g_error_free(error);
}

void rn_notifier_free(rn_notifier *n) {
    if (n == NULL) return;
    api.g_main_loop_quit(n->loop);
    pthread_join(n->thread, NULL);
    api.g_main_loop_unref(n->loop);
    api.g_main_context_unref(n->context);
    api.g_object_unref(n->connection);
    pthread_mutex_destroy(&n->lock);
    pthread_cond_destroy(&n->started);
    free(n);
}
