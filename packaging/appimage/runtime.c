/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * NaNscope's AppImage runtime (type 2): the small static program at the start of every
 * NaNscope-*.AppImage file.
 *
 * An AppImage is this ELF executable with a squashfs image of the AppDir appended:
 *
 *     [ runtime ELF, bytes 8..10 = 'A' 'I' 0x02 ][ squashfs image of the AppDir ]
 *
 * The image starts where the ELF file ends, which is the end of the section header table:
 * e_shoff + e_shnum * e_shentsize (the linker writes that table last; strip keeps it last).
 *
 * What it does:
 *   (no option)                  mount the image read-only with FUSE and exec MOUNT/AppRun;
 *                                when FUSE cannot be used, extract and run instead
 *   --appimage-extract-and-run   unpack into a temporary directory, run AppRun, delete the
 *                                directory afterwards (APPIMAGE_EXTRACT_AND_RUN=1 does the same;
 *                                NO_CLEANUP=1 keeps the directory)
 *   --appimage-extract [GLOB]    unpack everything (or what matches GLOB) into ./squashfs-root
 *   --appimage-mount             mount, print the mount point, stay until killed
 *   --appimage-offset            print the offset of the image
 *   --appimage-updateinfo        print the .upd_info section
 *   --appimage-version, --appimage-help
 * AppRun sees APPIMAGE (this file), APPDIR (the mount or extraction directory), OWD (the
 * caller's working directory) and ARGV0 in its environment. TARGET_APPIMAGE=FILE makes the
 * runtime use another file's image.
 *
 * Built statically against Debian's libsquashfuse_ll.a, libfuse3.a and the decompressors.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* squashfuse's config.h defines _POSIX_C_SOURCE again. */
#undef _POSIX_C_SOURCE
#include <squashfuse/ll.h>

#ifndef NANSCOPE_RUNTIME_VERSION
#define NANSCOPE_RUNTIME_VERSION "unknown"
#endif

/* The sections the AppImage specification names; tools may fill them in place. */
__attribute__((section(".upd_info"), used)) static char g_updateInfo[1024];
__attribute__((section(".sha256_sig"), used)) static char g_signature[1024];
__attribute__((section(".sig_key"), used)) static char g_signatureKey[8192];

static char g_self[PATH_MAX]; /* the AppImage file */
static off_t g_offset;        /* where its squashfs image starts */

static void fail(const char* what)
{
    fprintf(stderr, "appimage runtime: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* ---------------------------------------------------------------- the ELF header -------- */

struct ElfLayout
{
    int is64;
    off_t shoff;
    int shnum;
    int shentsize;
    int shstrndx;
};

static int readElfLayout(int fd, struct ElfLayout* layout)
{
    unsigned char ident[EI_NIDENT];
    if (pread(fd, ident, sizeof ident, 0) != (ssize_t)sizeof ident ||
        memcmp(ident, ELFMAG, SELFMAG) != 0)
        return -1;
    if (ident[EI_CLASS] == ELFCLASS64) {
        Elf64_Ehdr header;
        if (pread(fd, &header, sizeof header, 0) != (ssize_t)sizeof header)
            return -1;
        layout->is64 = 1;
        layout->shoff = (off_t)header.e_shoff;
        layout->shnum = header.e_shnum;
        layout->shentsize = header.e_shentsize;
        layout->shstrndx = header.e_shstrndx;
        return 0;
    }
    if (ident[EI_CLASS] == ELFCLASS32) {
        Elf32_Ehdr header;
        if (pread(fd, &header, sizeof header, 0) != (ssize_t)sizeof header)
            return -1;
        layout->is64 = 0;
        layout->shoff = (off_t)header.e_shoff;
        layout->shnum = header.e_shnum;
        layout->shentsize = header.e_shentsize;
        layout->shstrndx = header.e_shstrndx;
        return 0;
    }
    return -1;
}

static off_t payloadOffset(const char* path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail(path);
    struct ElfLayout layout;
    if (readElfLayout(fd, &layout) != 0) {
        fprintf(stderr, "appimage runtime: %s is not an ELF file\n", path);
        exit(1);
    }
    close(fd);
    return layout.shoff + (off_t)layout.shnum * (off_t)layout.shentsize;
}

/* Prints the text in an ELF section of the AppImage (64-bit files). */
static int printSection(const char* path, const char* wanted)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail(path);
    struct ElfLayout layout;
    Elf64_Shdr names;
    if (readElfLayout(fd, &layout) != 0 || !layout.is64 ||
        layout.shentsize != (int)sizeof(Elf64_Shdr) ||
        pread(fd, &names, sizeof names, layout.shoff + (off_t)layout.shstrndx * layout.shentsize) !=
            (ssize_t)sizeof names) {
        close(fd);
        fprintf(stderr, "appimage runtime: cannot read the sections of %s\n", path);
        return 1;
    }
    for (int i = 0; i < layout.shnum; i++) {
        Elf64_Shdr section;
        char name[64] = {0};
        if (pread(fd, &section, sizeof section, layout.shoff + (off_t)i * layout.shentsize) !=
            (ssize_t)sizeof section)
            break;
        if (pread(fd, name, sizeof name - 1, (off_t)(names.sh_offset + section.sh_name)) <= 0 ||
            strcmp(name, wanted) != 0)
            continue;
        char* text = calloc(1, section.sh_size + 1);
        if (!text ||
            pread(fd, text, section.sh_size, (off_t)section.sh_offset) != (ssize_t)section.sh_size)
            fail("reading a section");
        printf("%s\n", text);
        free(text);
        close(fd);
        return 0;
    }
    close(fd);
    fprintf(stderr, "appimage runtime: %s has no section %s\n", path, wanted);
    return 1;
}

/* ---------------------------------------------------------------- extraction ------------ */

/* Whether a path from the image stays below the directory it is extracted to. */
static int isSafeRelativePath(const char* path)
{
    if (path[0] == '/')
        return 0;
    for (const char* part = path; *part;) {
        const char* end = strchr(part, '/');
        size_t length = end ? (size_t)(end - part) : strlen(part);
        if (length == 2 && part[0] == '.' && part[1] == '.')
            return 0;
        if (!end)
            break;
        part = end + 1;
    }
    return 1;
}

static int makeParents(char* path)
{
    for (char* p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int failed = mkdir(path, 0755) != 0 && errno != EEXIST;
        *p = '/';
        if (failed)
            return -1;
    }
    return 0;
}

static int extractFile(sqfs* fs, sqfs_inode* inode, const char* target, mode_t mode)
{
    int fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    static char buffer[1 << 16];
    const uint64_t size = inode->xtra.reg.file_size;
    uint64_t position = 0;
    while (position < size) {
        sqfs_off_t wanted = (sqfs_off_t)sizeof buffer;
        if (position + (uint64_t)wanted > size)
            wanted = (sqfs_off_t)(size - position);
        sqfs_off_t got = wanted;
        if (sqfs_read_range(fs, inode, (sqfs_off_t)position, &got, buffer) != SQFS_OK || got <= 0) {
            close(fd);
            return -1;
        }
        for (sqfs_off_t done = 0; done < got;) {
            ssize_t written = write(fd, buffer + done, (size_t)(got - done));
            if (written < 0) {
                if (errno == EINTR)
                    continue;
                close(fd);
                return -1;
            }
            done += written;
        }
        position += (uint64_t)got;
    }
    if (fchmod(fd, mode) != 0) { /* the image's mode, whatever the umask */
        close(fd);
        return -1;
    }
    return close(fd);
}

/* Unpacks the image, or the entries whose path matches `pattern`, below `directory`. */
static int extractImage(const char* directory, const char* pattern, int verbose)
{
    sqfs fs;
    memset(&fs, 0, sizeof fs);
    if (sqfs_open_image(&fs, g_self, (size_t)g_offset) != SQFS_OK) {
        fprintf(stderr, "appimage runtime: %s holds no readable squashfs image\n", g_self);
        return -1;
    }
    if (mkdir(directory, 0755) != 0 && errno != EEXIST)
        fail(directory);

    sqfs_traverse walk;
    if (sqfs_traverse_open(&walk, &fs, sqfs_inode_root(&fs)) != SQFS_OK) {
        sqfs_destroy(&fs);
        return -1;
    }
    sqfs_err error = SQFS_OK;
    int failures = 0;
    char target[PATH_MAX];
    while (sqfs_traverse_next(&walk, &error)) {
        if (walk.dir_end)
            continue;
        const char* path = walk.path;
        if (!isSafeRelativePath(path) || (pattern && fnmatch(pattern, path, 0) != 0))
            continue;
        if ((size_t)snprintf(target, sizeof target, "%s/%s", directory, path) >= sizeof target) {
            failures++;
            continue;
        }
        if (pattern && makeParents(target) != 0) {
            failures++;
            continue;
        }
        sqfs_inode inode;
        if (sqfs_inode_get(&fs, &inode, sqfs_dentry_inode(&walk.entry)) != SQFS_OK) {
            failures++;
            continue;
        }
        const mode_t mode = inode.base.mode & 07777;
        if (verbose)
            printf("%s\n", target);
        switch (inode.base.inode_type) {
        case SQUASHFS_DIR_TYPE:
        case SQUASHFS_LDIR_TYPE:
            /* Owner rwx so that the contents can be written; the image's dirs are 0755. */
            if (mkdir(target, mode | S_IRWXU) != 0 && errno != EEXIST)
                failures++;
            break;
        case SQUASHFS_REG_TYPE:
        case SQUASHFS_LREG_TYPE:
            unlink(target);
            if (extractFile(&fs, &inode, target, mode) != 0)
                failures++;
            break;
        case SQUASHFS_SYMLINK_TYPE:
        case SQUASHFS_LSYMLINK_TYPE: {
            char link[PATH_MAX];
            size_t length = sizeof link;
            unlink(target);
            if (sqfs_readlink(&fs, &inode, link, &length) != SQFS_OK || symlink(link, target) != 0)
                failures++;
            break;
        }
        default: /* devices, fifos and sockets have no place in an AppDir */
            break;
        }
    }
    sqfs_traverse_close(&walk);
    sqfs_destroy(&fs);
    if (error != SQFS_OK)
        failures++;
    return failures ? -1 : 0;
}

static int removeEntry(const char* path, const struct stat* st, int type, struct FTW* walk)
{
    (void)st;
    (void)type;
    (void)walk;
    return remove(path);
}

/* ---------------------------------------------------------------- running AppRun -------- */

static const char* temporaryDirectory(void)
{
    const char* dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

static int isSet(const char* variable)
{
    const char* value = getenv(variable);
    return value && *value && strcmp(value, "0") != 0;
}

static void execAppRun(const char* appdir, int argc, char** argv)
{
    char appRun[PATH_MAX];
    char cwd[PATH_MAX];
    snprintf(appRun, sizeof appRun, "%s/AppRun", appdir);
    setenv("APPIMAGE", g_self, 1);
    setenv("APPDIR", appdir, 1);
    setenv("ARGV0", argv[0], 1);
    if (getcwd(cwd, sizeof cwd))
        setenv("OWD", cwd, 1);
    char** args = calloc((size_t)argc + 1, sizeof *args);
    if (!args)
        fail("calloc");
    args[0] = appRun;
    for (int i = 1; i < argc; i++)
        args[i] = argv[i];
    execv(appRun, args);
    fail(appRun);
}

static int extractAndRun(int argc, char** argv)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/appimage_extracted_XXXXXX", temporaryDirectory());
    if (!mkdtemp(dir))
        fail("mkdtemp");
    if (extractImage(dir, NULL, 0) != 0) {
        fprintf(stderr, "appimage runtime: could not extract the image into %s\n", dir);
        nftw(dir, removeEntry, 32, FTW_DEPTH | FTW_PHYS);
        return 1;
    }
    pid_t child = fork();
    if (child < 0)
        fail("fork");
    if (child == 0)
        execAppRun(dir, argc, argv);

    /* The application handles Ctrl-C; this process only waits and cleans up. */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!isSet("NO_CLEANUP"))
        nftw(dir, removeEntry, 32, FTW_DEPTH | FTW_PHYS);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

/* ---------------------------------------------------------------- the FUSE mount --------- */

/*
 * Answers FUSE requests until every process holding the write end of the keep-alive pipe (the
 * application and the children that inherited it) has exited, or until someone unmounts.
 */
static void serve(struct fuse_session* session, int keepAlive)
{
    struct fuse_buf buffer;
    memset(&buffer, 0, sizeof buffer);
    struct pollfd fds[2] = {
        {.fd = fuse_session_fd(session), .events = POLLIN},
        {.fd = keepAlive, .events = POLLIN},
    };
    while (!fuse_session_exited(session)) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (fds[1].revents)
            break;
        if (fds[0].revents & POLLIN) {
            int received = fuse_session_receive_buf(session, &buffer);
            if (received == -EINTR || received == -EAGAIN)
                continue;
            if (received <= 0)
                break;
            fuse_session_process_buf(session, &buffer);
        } else if (fds[0].revents) {
            break;
        }
    }
    free(buffer.mem);
}

static struct fuse_session* newSession(sqfs_ll* ll)
{
    struct fuse_lowlevel_ops ops;
    memset(&ops, 0, sizeof ops);
    ops.lookup = sqfs_ll_op_lookup;
    ops.forget = sqfs_ll_op_forget;
    ops.getattr = sqfs_ll_op_getattr;
    ops.readlink = sqfs_ll_op_readlink;
    ops.open = sqfs_ll_op_open;
    ops.read = sqfs_ll_op_read;
    ops.release = sqfs_ll_op_release;
    ops.opendir = sqfs_ll_op_opendir;
    ops.readdir = sqfs_ll_op_readdir;
    ops.releasedir = sqfs_ll_op_releasedir;
    ops.statfs = stfs_ll_op_statfs;
    ops.listxattr = sqfs_ll_op_listxattr;
    ops.getxattr = sqfs_ll_op_getxattr;
    ops.create = sqfs_ll_op_create;

    /* The file name shows in `mount`; keep the -o list parseable. */
    char fsname[PATH_MAX];
    char options[PATH_MAX + 64];
    snprintf(fsname, sizeof fsname, "%s", g_self);
    for (char* p = fsname; *p; p++) {
        if (*p == ' ' || *p == ',' || *p == '\\')
            *p = '_';
    }
    snprintf(options, sizeof options, "ro,nodev,nosuid,fsname=%s,subtype=appimage", fsname);
    char* args[] = {"appimage-runtime", "-o", options, NULL};
    struct fuse_args fuseArgs = FUSE_ARGS_INIT(3, args);
    return fuse_session_new(&fuseArgs, &ops, sizeof ops, ll);
}

/* Mounts the image and execs AppRun (or prints the mount point); returns only on failure. */
static int mountAndRun(int argc, char** argv, int printOnly)
{
    const char* base = strrchr(g_self, '/');
    base = base ? base + 1 : g_self;
    /* .mount_ and the first six characters of the file name, as other runtimes do. */
    char prefix[7] = {0};
    for (size_t i = 0; i + 1 < sizeof prefix && base[i]; i++)
        prefix[i] = base[i] == ' ' ? '_' : base[i];
    char mountPoint[PATH_MAX];
    snprintf(mountPoint, sizeof mountPoint, "%s/.mount_%sXXXXXX", temporaryDirectory(), prefix);
    if (!mkdtemp(mountPoint))
        return -1;

    int ready[2];
    int keepAlive[2];
    if (pipe2(ready, O_CLOEXEC) != 0 || pipe(keepAlive) != 0) {
        rmdir(mountPoint);
        return -1;
    }
    fcntl(keepAlive[0], F_SETFD, FD_CLOEXEC);

    pid_t server = fork();
    if (server < 0) {
        rmdir(mountPoint);
        return -1;
    }
    if (server == 0) {
        /* The FUSE server, in its own session so that terminal signals reach only the app. */
        close(ready[0]);
        close(keepAlive[1]);
        setsid();
        int devNull = open("/dev/null", O_RDWR);
        if (devNull >= 0) {
            dup2(devNull, 0);
            dup2(devNull, 1);
        }
        char mounted = 0;
        struct fuse_session* session = NULL;
        sqfs_ll* ll = sqfs_ll_open(g_self, (size_t)g_offset);
        if (ll) {
            session = newSession(ll);
            mounted = session && fuse_session_mount(session, mountPoint) == 0;
        }
        if (write(ready[1], &mounted, 1) != 1 || !mounted)
            _exit(1);
        close(ready[1]);
        serve(session, keepAlive[0]);
        fuse_session_unmount(session);
        fuse_session_destroy(session);
        rmdir(mountPoint);
        _exit(0);
    }

    close(ready[1]);
    close(keepAlive[0]);
    char mounted = 0;
    ssize_t n;
    while ((n = read(ready[0], &mounted, 1)) < 0 && errno == EINTR) {
    }
    close(ready[0]);
    if (n != 1 || !mounted) {
        close(keepAlive[1]);
        waitpid(server, NULL, 0);
        rmdir(mountPoint);
        return -1;
    }
    if (printOnly) {
        printf("%s\n", mountPoint);
        fflush(stdout);
        for (;;)
            pause(); /* the keep-alive pipe stays open until this process is killed */
    }
    execAppRun(mountPoint, argc, argv); /* AppRun inherits keepAlive[1] on purpose */
    return -1;
}

/* ---------------------------------------------------------------- main ------------------- */

static void usage(void)
{
    printf(
        "AppImage runtime %s (NaNscope)\n"
        "  --appimage-extract [GLOB]   unpack into ./squashfs-root\n"
        "  --appimage-extract-and-run  unpack into a temporary directory and run\n"
        "                              (also APPIMAGE_EXTRACT_AND_RUN=1; NO_CLEANUP=1 keeps it)\n"
        "  --appimage-mount            mount, print the mount point, wait until killed\n"
        "  --appimage-offset           print the offset of the squashfs image\n"
        "  --appimage-updateinfo       print the embedded update information\n"
        "  --appimage-version          print the runtime's version\n"
        "  --appimage-help             print this help\n",
        NANSCOPE_RUNTIME_VERSION);
}

int main(int argc, char** argv)
{
    const char* target = getenv("TARGET_APPIMAGE");
    if (target && *target) {
        if (!realpath(target, g_self))
            fail(target);
    } else {
        ssize_t n = readlink("/proc/self/exe", g_self, sizeof g_self - 1);
        if (n < 0)
            fail("/proc/self/exe");
        g_self[n] = '\0';
    }
    g_offset = payloadOffset(g_self);

    const char* option = argc > 1 ? argv[1] : "";
    if (strncmp(option, "--appimage-", 11) == 0) {
        if (strcmp(option, "--appimage-offset") == 0) {
            printf("%lld\n", (long long)g_offset);
            return 0;
        }
        if (strcmp(option, "--appimage-extract") == 0)
            return extractImage("squashfs-root", argc > 2 ? argv[2] : NULL, 1) == 0 ? 0 : 1;
        if (strcmp(option, "--appimage-extract-and-run") == 0) {
            argv[1] = argv[0];
            return extractAndRun(argc - 1, argv + 1);
        }
        if (strcmp(option, "--appimage-mount") == 0) {
            mountAndRun(argc, argv, 1);
            fprintf(stderr, "appimage runtime: the FUSE mount failed\n");
            return 1;
        }
        if (strcmp(option, "--appimage-updateinfo") == 0)
            return printSection(g_self, ".upd_info");
        if (strcmp(option, "--appimage-version") == 0) {
            printf("%s\n", NANSCOPE_RUNTIME_VERSION);
            return 0;
        }
        if (strcmp(option, "--appimage-help") == 0) {
            usage();
            return 0;
        }
        fprintf(stderr, "appimage runtime: unknown option %s (see --appimage-help)\n", option);
        return 1;
    }

    if (isSet("APPIMAGE_EXTRACT_AND_RUN"))
        return extractAndRun(argc, argv);
    mountAndRun(argc, argv, 0);
    fprintf(stderr, "appimage runtime: FUSE cannot be used here, so the application is extracted "
                    "to a temporary directory instead (APPIMAGE_EXTRACT_AND_RUN=1 skips the "
                    "attempt)\n");
    return extractAndRun(argc, argv);
}
