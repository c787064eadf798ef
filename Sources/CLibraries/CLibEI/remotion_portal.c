// See include/remotion_portal.h. GLib, GObject and GIO are opened RTLD_LOCAL at the first
// rp_open and never closed; declared here by hand as the stable 2.x ABI from their public
// headers (as the notification shim does): opaque objects as void *, GError's prefix.
#include "remotion_portal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { uint32_t domain; int code; char *message; } rp_gerror;   // GError
typedef void (*rp_signal_fn)(void *connection, const char *sender, const char *path, const char *interface,
                             const char *signal, void *parameters, void *user_data);

enum { CONNECTION_AUTH_CLIENT = 1 << 0, CONNECTION_MESSAGE_BUS = 1 << 3, CALL_NONE = 0, SIGNAL_NONE = 0 };
enum { QUEUE = 32, CALL_MS = 30000 };

static struct {
    void (*g_error_free)(rp_gerror *);
    void *(*g_variant_new)(const char *format, ...);
    void (*g_variant_get)(void *value, const char *format, ...);
    void *(*g_variant_new_array)(const void *child_type, void *const *children, size_t n);
    void *(*g_variant_new_dict_entry)(void *key, void *value);
    void *(*g_variant_new_string)(const char *s);
    void *(*g_variant_new_uint32)(uint32_t u);
    void *(*g_variant_new_variant)(void *v);
    void (*g_variant_unref)(void *value);
    const char *(*g_variant_get_type_string)(void *value);
    void *(*g_variant_lookup_value)(void *dict, const char *key, const void *type);
    const char *(*g_variant_get_string)(void *value, size_t *length);
    uint32_t (*g_variant_get_uint32)(void *value);
    void *(*g_main_context_new)(void);
    void (*g_main_context_unref)(void *context);
    void (*g_main_context_push_thread_default)(void *context);
    void (*g_main_context_pop_thread_default)(void *context);
    int (*g_main_context_iteration)(void *context, int may_block);
    void *(*g_timeout_source_new)(unsigned interval_ms);
    void (*g_source_set_callback)(void *source, int (*fn)(void *), void *data, void (*notify)(void *));
    unsigned (*g_source_attach)(void *source, void *context);
    void (*g_source_destroy)(void *source);
    void (*g_source_unref)(void *source);
    void (*g_object_unref)(void *object);
    void *(*g_dbus_connection_new_for_address_sync)(const char *address, int flags, void *observer, void *cancellable,
                                                    rp_gerror **error);
    const char *(*g_dbus_connection_get_unique_name)(void *connection);
    void *(*g_dbus_connection_call_sync)(void *connection, const char *bus_name, const char *path, const char *interface,
                                         const char *method, void *parameters, const void *reply_type, int flags,
                                         int timeout_ms, void *cancellable, rp_gerror **error);
    void *(*g_dbus_connection_call_with_unix_fd_list_sync)(void *connection, const char *bus_name, const char *path,
                                                           const char *interface, const char *method, void *parameters,
                                                           const void *reply_type, int flags, int timeout_ms,
                                                           void *fd_list, void **out_fd_list, void *cancellable,
                                                           rp_gerror **error);
    unsigned (*g_dbus_connection_signal_subscribe)(void *connection, const char *sender, const char *interface,
                                                   const char *member, const char *path, const char *arg0, int flags,
                                                   rp_signal_fn callback, void *user_data, void (*free_data)(void *));
    void (*g_dbus_connection_signal_unsubscribe)(void *connection, unsigned id);
    int (*g_dbus_connection_close_sync)(void *connection, void *cancellable, rp_gerror **error);
    int (*g_unix_fd_list_get)(void *list, int index, rp_gerror **error);
} api;

typedef struct { const char *name; size_t offset; } symbol;
#define SYM(field) { #field, offsetof(__typeof__(api), field) }
static const symbol glib[] = {
    SYM(g_error_free), SYM(g_variant_new), SYM(g_variant_get), SYM(g_variant_new_array),
    SYM(g_variant_new_dict_entry), SYM(g_variant_new_string), SYM(g_variant_new_uint32), SYM(g_variant_new_variant),
    SYM(g_variant_unref), SYM(g_variant_get_type_string), SYM(g_variant_lookup_value), SYM(g_variant_get_string),
    SYM(g_variant_get_uint32), SYM(g_main_context_new), SYM(g_main_context_unref),
    SYM(g_main_context_push_thread_default), SYM(g_main_context_pop_thread_default), SYM(g_main_context_iteration),
    SYM(g_timeout_source_new), SYM(g_source_set_callback), SYM(g_source_attach), SYM(g_source_destroy),
    SYM(g_source_unref),
};
static const symbol gobject[] = { SYM(g_object_unref) };
static const symbol gio[] = {
    SYM(g_dbus_connection_new_for_address_sync),
    SYM(g_dbus_connection_get_unique_name), SYM(g_dbus_connection_call_sync),
    SYM(g_dbus_connection_call_with_unix_fd_list_sync), SYM(g_dbus_connection_signal_subscribe),
    SYM(g_dbus_connection_signal_unsubscribe), SYM(g_dbus_connection_close_sync), SYM(g_unix_fd_list_get),
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
        if (handle == NULL) { snprintf(failure, sizeof failure, "%s not found", libraries[i].soname); return; }
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

static int say(char *why, size_t size, const char *what, rp_gerror *error) {
    if (why && size) snprintf(why, size, "%s%s%s", what, error ? ": " : "", error ? error->message : "");
    if (error) api.g_error_free(error);
    return -1;
}

struct rp_portal {
    void *connection;
    void *context;                 // where the Response signals are delivered: iterated by rp_next_response
    unsigned subscription;
    rp_response queue[QUEUE];
    size_t head, count;
    uint64_t dropped;
};

static const char *const desktop = "org.freedesktop.portal.Desktop";
static const char *const object = "/org/freedesktop/portal/desktop";
static const char *const remote = "org.freedesktop.portal.RemoteDesktop";

static void copy_string(char *to, size_t size, void *dict, const char *key) {
    void *v = api.g_variant_lookup_value(dict, key, NULL);
    to[0] = 0;
    if (v == NULL) return;
    const char *type = api.g_variant_get_type_string(v);
    if (strcmp(type, "s") == 0 || strcmp(type, "o") == 0) {
        size_t length = 0;
        const char *s = api.g_variant_get_string(v, &length);
        if (length < size) memcpy(to, s, length + 1);   // longer: not one (the flow sees none)
    }
    api.g_variant_unref(v);
}

static void on_response(void *connection, const char *sender, const char *path, const char *interface,
                        const char *signal, void *parameters, void *user_data) {
    (void)connection; (void)interface; (void)signal;
    rp_portal *p = user_data;
    if (sender == NULL || path == NULL || strcmp(api.g_variant_get_type_string(parameters), "(ua{sv})") != 0) return;
    if (p->count == QUEUE || strlen(sender) >= sizeof p->queue[0].sender || strlen(path) >= sizeof p->queue[0].path) {
        p->dropped++;
        return;
    }
    rp_response *r = &p->queue[(p->head + p->count) % QUEUE];
    memset(r, 0, sizeof *r);
    snprintf(r->sender, sizeof r->sender, "%s", sender);
    snprintf(r->path, sizeof r->path, "%s", path);
    void *results = NULL;
    api.g_variant_get(parameters, "(u@a{sv})", &r->code, &results);
    copy_string(r->session_handle, sizeof r->session_handle, results, "session_handle");
    copy_string(r->restore_token, sizeof r->restore_token, results, "restore_token");
    void *devices = api.g_variant_lookup_value(results, "devices", NULL);
    if (devices && strcmp(api.g_variant_get_type_string(devices), "u") == 0) {
        r->devices = api.g_variant_get_uint32(devices);
        r->has_devices = 1;
    }
    if (devices) api.g_variant_unref(devices);
    api.g_variant_unref(results);
    p->count++;
}

rp_portal *rp_open(const char *address, char *why, size_t why_size) {
    pthread_once(&once, load);
    if (!loaded) { say(why, why_size, failure, NULL); return NULL; }
    rp_gerror *error = NULL;
    void *connection = api.g_dbus_connection_new_for_address_sync(
        address, CONNECTION_AUTH_CLIENT | CONNECTION_MESSAGE_BUS, NULL, NULL, &error);
    if (connection == NULL) { say(why, why_size, "the session bus does not answer", error); return NULL; }
    rp_portal *p = calloc(1, sizeof *p);
    if (p == NULL) { api.g_object_unref(connection); say(why, why_size, "out of memory", NULL); return NULL; }
    p->connection = connection;
    p->context = api.g_main_context_new();
    // Signals are delivered in the thread-default context of the subscriber: ours.
    api.g_main_context_push_thread_default(p->context);
    p->subscription = api.g_dbus_connection_signal_subscribe(connection, NULL, "org.freedesktop.portal.Request",
                                                             "Response", NULL, NULL, SIGNAL_NONE, on_response, p, NULL);
    api.g_main_context_pop_thread_default(p->context);
    return p;
}

const char *rp_unique_name(rp_portal *p) {
    const char *name = api.g_dbus_connection_get_unique_name(p->connection);
    return name ? name : "";
}

int rp_portal_info(rp_portal *p, char *owner, size_t owner_size, uint32_t *version, char *why, size_t why_size) {
    rp_gerror *error = NULL;
    // To the well-known name: the bus activates the portal if it does not run yet.
    void *reply = api.g_dbus_connection_call_sync(p->connection, desktop, object, "org.freedesktop.DBus.Properties", "Get",
                                                  api.g_variant_new("(ss)", remote, "version"), "(v)", CALL_NONE, CALL_MS,
                                                  NULL, &error);
    if (reply == NULL) return say(why, why_size, "org.freedesktop.portal.Desktop has no RemoteDesktop interface", error);
    void *inner = NULL;
    api.g_variant_get(reply, "(v)", &inner);
    int ok = strcmp(api.g_variant_get_type_string(inner), "u") == 0;
    *version = ok ? api.g_variant_get_uint32(inner) : 0;
    api.g_variant_unref(inner);
    api.g_variant_unref(reply);
    if (!ok) return say(why, why_size, "the RemoteDesktop version is not a number", NULL);
    reply = api.g_dbus_connection_call_sync(p->connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                            "org.freedesktop.DBus", "GetNameOwner", api.g_variant_new("(s)", desktop),
                                            "(s)", CALL_NONE, CALL_MS, NULL, &error);
    if (reply == NULL) return say(why, why_size, "org.freedesktop.portal.Desktop has no owner", error);
    const char *name = "";
    api.g_variant_get(reply, "(&s)", &name);
    ok = *name && strlen(name) < owner_size;
    snprintf(owner, owner_size, "%s", ok ? name : "");
    api.g_variant_unref(reply);
    return ok ? 0 : say(why, why_size, "the portal's unique name is not one", NULL);
}

/// a{sv} of `n` keys with their values (floating: consumed by the call).
static void *options(const char *const *keys, void *const *values, size_t n) {
    void *entries[8];
    for (size_t i = 0; i < n && i < 8; i++)
        entries[i] = api.g_variant_new_dict_entry(api.g_variant_new_string(keys[i]), api.g_variant_new_variant(values[i]));
    return api.g_variant_new_array("{sv}", entries, n < 8 ? n : 8);
}

/// Calls `method` on the portal's unique name and reads the Request's path from the reply.
static int request(rp_portal *p, const char *owner, const char *method, void *parameters, char *handle,
                   size_t handle_size, char *why, size_t why_size) {
    rp_gerror *error = NULL;
    void *reply = api.g_dbus_connection_call_sync(p->connection, owner, object, remote, method, parameters, "(o)",
                                                  CALL_NONE, CALL_MS, NULL, &error);
    if (reply == NULL) return say(why, why_size, method, error);
    const char *path = "";
    api.g_variant_get(reply, "(&o)", &path);
    int ok = strlen(path) < handle_size;
    snprintf(handle, handle_size, "%s", ok ? path : "");
    api.g_variant_unref(reply);
    return ok ? 0 : say(why, why_size, "the Request's path is too long", NULL);
}

int rp_create_session(rp_portal *p, const char *owner, const char *handle_token, const char *session_token,
                      char *handle, size_t handle_size, char *why, size_t why_size) {
    const char *keys[] = { "handle_token", "session_handle_token" };
    void *values[] = { api.g_variant_new_string(handle_token), api.g_variant_new_string(session_token) };
    return request(p, owner, "CreateSession", api.g_variant_new("(@a{sv})", options(keys, values, 2)), handle,
                   handle_size, why, why_size);
}

int rp_select_devices(rp_portal *p, const char *owner, const char *session, const char *handle_token, uint32_t types,
                      uint32_t persist_mode, const char *restore_token, char *handle, size_t handle_size, char *why,
                      size_t why_size) {
    const char *keys[] = { "handle_token", "types", "persist_mode", "restore_token" };
    void *values[] = { api.g_variant_new_string(handle_token), api.g_variant_new_uint32(types),
                       api.g_variant_new_uint32(persist_mode), restore_token ? api.g_variant_new_string(restore_token) : NULL };
    return request(p, owner, "SelectDevices",
                   api.g_variant_new("(o@a{sv})", session, options(keys, values, restore_token ? 4 : 3)), handle,
                   handle_size, why, why_size);
}

int rp_start(rp_portal *p, const char *owner, const char *session, const char *handle_token, char *handle,
             size_t handle_size, char *why, size_t why_size) {
    const char *keys[] = { "handle_token" };
    void *values[] = { api.g_variant_new_string(handle_token) };
    return request(p, owner, "Start", api.g_variant_new("(os@a{sv})", session, "", options(keys, values, 1)), handle,
                   handle_size, why, why_size);
}

int rp_connect_to_eis(rp_portal *p, const char *owner, const char *session, int *fd, char *why, size_t why_size) {
    rp_gerror *error = NULL;
    void *list = NULL;
    void *reply = api.g_dbus_connection_call_with_unix_fd_list_sync(
        p->connection, owner, object, remote, "ConnectToEIS", api.g_variant_new("(o@a{sv})", session, options(NULL, NULL, 0)),
        "(h)", CALL_NONE, CALL_MS, NULL, &list, NULL, &error);
    if (reply == NULL) return say(why, why_size, "ConnectToEIS", error);
    int32_t index = -1;
    api.g_variant_get(reply, "(h)", &index);
    api.g_variant_unref(reply);
    *fd = list ? api.g_unix_fd_list_get(list, index, &error) : -1;   // a duplicate, close-on-exec
    if (list) api.g_object_unref(list);
    return *fd >= 0 ? 0 : say(why, why_size, "ConnectToEIS's reply carries no socket", error);
}

static int expire(void *data) {
    *(int *)data = 1;
    return 0;   // G_SOURCE_REMOVE
}

int rp_next_response(rp_portal *p, int timeout_ms, rp_response *out) {
    if (p->count == 0) {
        int expired = 0;
        void *timer = api.g_timeout_source_new(timeout_ms > 0 ? (unsigned)timeout_ms : 0);
        api.g_source_set_callback(timer, expire, &expired, NULL);
        api.g_source_attach(timer, p->context);
        while (p->count == 0 && !expired) api.g_main_context_iteration(p->context, 1);
        api.g_source_destroy(timer);
        api.g_source_unref(timer);
    }
    if (p->count == 0) return 0;
    *out = p->queue[p->head];
    p->head = (p->head + 1) % QUEUE;
    p->count--;
    return 1;
}

uint64_t rp_dropped_responses(rp_portal *p) { return p->dropped; }

void rp_close_session(rp_portal *p, const char *owner, const char *session) {
    rp_gerror *error = NULL;
    void *reply = api.g_dbus_connection_call_sync(p->connection, owner, session, "org.freedesktop.portal.Session", "Close",
                                                  NULL, NULL, CALL_NONE, 5000, NULL, &error);
    if (reply) api.g_variant_unref(reply);
    if (error) api.g_error_free(error);
}

void rp_free(rp_portal *p) {
    if (p == NULL) return;
    api.g_dbus_connection_signal_unsubscribe(p->connection, p->subscription);
    // Flush what is pending and let the bus see the connection go: the portal ends the session.
    api.g_dbus_connection_close_sync(p->connection, NULL, NULL);
    api.g_object_unref(p->connection);
    // Anything the subscription still had queued in the context is dropped with it.
    while (api.g_main_context_iteration(p->context, 0)) {}
    api.g_main_context_unref(p->context);
    free(p);
}
