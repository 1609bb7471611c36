// How fast can 1000 small files be created in one directory by two threads, each way gymcard could
// write a batch? Used by Benchmarks/file-creation.sh; not part of gymcard.
//   0  O_TMPFILE, write, linkat (complete before it has a name; what gymcard does)
//   1  unlink, then open(O_CREAT|O_EXCL), write (the old staging directory's per-file steps)
//   2  a temporary name, write, rename over the target
//   3  open(O_CREAT|O_EXCL), write (not atomic: a reader can see a half-written file)
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int mode;
static const char *directory;
static char data[138];

static void *worker(void *argument) {
    long first = (long)argument;
    char path[4096], temporary[4096], link[64];
    for (int i = (int)first; i < 1000; i += 2) {
        snprintf(path, sizeof path, "%s/A%09dB.png", directory, i);
        if (mode == 0) {
            int fd = open(directory, O_TMPFILE | O_WRONLY, 0666);
            if (write(fd, data, sizeof data) < 0) perror("write");
            snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
            if (linkat(AT_FDCWD, link, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0) perror("linkat");
            close(fd);
        } else if (mode == 1 || mode == 3) {
            if (mode == 1) unlink(path);
            int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0666);
            if (write(fd, data, sizeof data) < 0) perror("write");
            close(fd);
        } else {
            snprintf(temporary, sizeof temporary, "%s/.A%09dB.tmp", directory, i);
            int fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY, 0600);
            if (write(fd, data, sizeof data) < 0) perror("write");
            close(fd);
            rename(temporary, path);
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    mode = atoi(argv[1]);
    directory = argv[2];
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pthread_t threads[2];
    for (long k = 0; k < 2; k++) pthread_create(&threads[k], 0, worker, (void *)k);
    for (int k = 0; k < 2; k++) pthread_join(threads[k], 0);
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("%.1f\n", (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6);
    return 0;
}
