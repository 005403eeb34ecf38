/* escape: looks for a way out of its sandbox: a host file by absolute path, the parent of
 * its directory, the host's environment. A sandboxed guest sees none of them (native code
 * is not sandboxed: its cell fails as a wrong answer, which is the point of the baseline).
 * A sandbox whose root is its own parent (`..` of `/` is `/`) is still closed: the marker
 * written in `.` is then found through `..`, and that counts as refused; so does a `..`
 * with no real entries (wasmer's WASIX lists only a bogus "/." there). */
#include "fault.h"
#include <dirent.h>

extern char **environ;

/* Entries of a directory that could be host files: not ".", "..", nor names with a '/'. */
static int real_entries(DIR *d) {
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            strchr(e->d_name, '/') == NULL) {
            n++;
        }
    }
    return n;
}

static int exists(const char *path) {
    FILE *f = fopen(path, "r");
    if (f) fclose(f);
    return f != NULL;
}

int main(int argc, char **argv) {
    fault_args(argc, argv);
    FILE *f = fopen("/etc/passwd", "r");
    printf("escape: /etc/passwd %s\n", f ? "READABLE" : "refused");
    if (f) fclose(f);
    f = fopen("escape-marker", "w");
    printf("escape: ./ %s\n", f ? "writable" : "REFUSED");
    if (f) fclose(f);
    int same = exists("../escape-marker");
    DIR *d = opendir("..");
    int open = d != NULL && !same && real_entries(d) > 0;
    printf("escape: .. %s\n", open ? "LISTABLE" : "refused");
    if (d) closedir(d);
    f = fopen("../escape-probe", "w");
    printf("escape: ../ %s\n", f && !same ? "WRITABLE" : "refused");
    if (f) fclose(f);
    int vars = 0;
    for (char **e = environ; e && *e; e++) vars++;
    printf("escape: %d environment variables\n", vars);
    return 0;
}
