// A libei sender on an EIS socket handed over as a file descriptor: the stage's stand-in for
// a client of the compositor's EIS, to show what the compositor offers and that input sent
// through it arrives (witnessed by a Wayland client, never by this program).
//   ei-probe FD < COMMANDS
// Prints, one line each: "seat NAME ...caps", "device NAME abs=0|1 kbd=0|1 ...",
// "region I: X,Y WxH scale S" per absolute region, "keymap xkb SIZE", then "ready abs=0|1
// kbd=0|1" once both devices are resumed (5 s at most). Then reads commands:
//   move X Y          absolute motion in the compositor's logical pixels
//   button CODE 0|1   a Linux BTN_* code
//   scroll STEPS      vertical wheel steps (120 each, downwards positive)
//   key CODE 0|1      a Linux KEY_* code, through the keymap the compositor chose
//   sync              a round trip: the compositor has handled everything sent before
// and prints "done COMMAND" after each. "disconnected" and exit 3 when the compositor ends it.
#include <libei.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ei *ei;
static struct ei_device *pointer, *keyboard;
static int pointer_live, keyboard_live, synced;
static uint32_t sequence;

static void print_device(struct ei_device *d) {
    printf("device %s abs=%d kbd=%d button=%d scroll=%d\n", ei_device_get_name(d),
           ei_device_has_capability(d, EI_DEVICE_CAP_POINTER_ABSOLUTE), ei_device_has_capability(d, EI_DEVICE_CAP_KEYBOARD),
           ei_device_has_capability(d, EI_DEVICE_CAP_BUTTON), ei_device_has_capability(d, EI_DEVICE_CAP_SCROLL));
    struct ei_region *r;
    for (size_t i = 0; (r = ei_device_get_region(d, i)) != NULL; i++)
        printf("region %zu: %u,%u %ux%u scale %.2f\n", i, ei_region_get_x(r), ei_region_get_y(r),
               ei_region_get_width(r), ei_region_get_height(r), ei_region_get_physical_scale(r));
    struct ei_keymap *k = ei_device_keyboard_get_keymap(d);
    if (k != NULL) printf("keymap %s %zu\n", ei_keymap_get_type(k) == EI_KEYMAP_TYPE_XKB ? "xkb" : "other", ei_keymap_get_size(k));
}

static void pump(int timeout_ms) {
    struct pollfd p = { .fd = ei_get_fd(ei), .events = POLLIN };
    if (poll(&p, 1, timeout_ms) > 0) ei_dispatch(ei);
    struct ei_event *e;
    while ((e = ei_get_event(ei)) != NULL) {
        struct ei_device *d = ei_event_get_device(e);
        switch (ei_event_get_type(e)) {
        case EI_EVENT_SEAT_ADDED: {
            struct ei_seat *s = ei_event_get_seat(e);
            printf("seat %s abs=%d kbd=%d\n", ei_seat_get_name(s), ei_seat_has_capability(s, EI_DEVICE_CAP_POINTER_ABSOLUTE),
                   ei_seat_has_capability(s, EI_DEVICE_CAP_KEYBOARD));
            ei_seat_bind_capabilities(s, EI_DEVICE_CAP_POINTER_ABSOLUTE, EI_DEVICE_CAP_KEYBOARD,
                                      EI_DEVICE_CAP_BUTTON, EI_DEVICE_CAP_SCROLL, NULL);
            break;
        }
        case EI_EVENT_DEVICE_ADDED:
            print_device(d);
            if (pointer == NULL && ei_device_has_capability(d, EI_DEVICE_CAP_POINTER_ABSOLUTE)) pointer = ei_device_ref(d);
            if (keyboard == NULL && ei_device_has_capability(d, EI_DEVICE_CAP_KEYBOARD)) keyboard = ei_device_ref(d);
            break;
        case EI_EVENT_DEVICE_RESUMED:
            ei_device_start_emulating(d, ++sequence);
            if (d == pointer) pointer_live = 1;
            if (d == keyboard) keyboard_live = 1;
            break;
        case EI_EVENT_DEVICE_PAUSED:
            if (d == pointer) pointer_live = 0;
            if (d == keyboard) keyboard_live = 0;
            break;
        case EI_EVENT_PONG:
            synced = 1;
            break;
        case EI_EVENT_DISCONNECT:
            printf("disconnected\n");
            exit(3);
        default:
            break;
        }
        ei_event_unref(e);
    }
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 2) { fprintf(stderr, "usage: ei-probe FD < COMMANDS\n"); return 2; }
    ei = ei_new_sender(NULL);
    ei_configure_name(ei, "remotion-ei-probe");
    int rc = ei_setup_backend_fd(ei, atoi(argv[1]));
    if (rc != 0) { printf("setup failed: %s\n", strerror(-rc)); return 1; }
    for (int i = 0; i < 50 && !(pointer_live && keyboard_live); i++) pump(100);
    printf("ready abs=%d kbd=%d\n", pointer_live, keyboard_live);
    char line[256];
    while (fgets(line, sizeof line, stdin) != NULL) {
        double x, y;
        int code, down;
        if (sscanf(line, "move %lf %lf", &x, &y) == 2 && pointer_live) {
            ei_device_pointer_motion_absolute(pointer, x, y);
            ei_device_frame(pointer, ei_now(ei));
        } else if (sscanf(line, "button %d %d", &code, &down) == 2 && pointer_live) {
            ei_device_button_button(pointer, (uint32_t)code, down != 0);
            ei_device_frame(pointer, ei_now(ei));
        } else if (sscanf(line, "scroll %d", &code) == 1 && pointer_live) {
            ei_device_scroll_discrete(pointer, 0, code * 120);
            ei_device_frame(pointer, ei_now(ei));
        } else if (sscanf(line, "key %d %d", &code, &down) == 2 && keyboard_live) {
            ei_device_keyboard_key(keyboard, (uint32_t)code, down != 0);
            ei_device_frame(keyboard, ei_now(ei));
        } else if (strncmp(line, "sync", 4) == 0) {
            synced = 0;
            struct ei_ping *ping = ei_new_ping(ei);
            ei_ping(ping);
            for (int i = 0; i < 50 && !synced; i++) pump(100);
            ei_ping_unref(ping);
        } else {
            printf("refused %s", line);
            continue;
        }
        pump(0);
        printf("done %s", line);
    }
    // End of the commands: a last look for a disconnect the commands' sends provoked.
    for (int i = 0; i < 5; i++) pump(100);
    ei_unref(ei);
    return 0;
}
