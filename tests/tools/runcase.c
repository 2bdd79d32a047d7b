/*
 * Run a command with a time limit and say how it ended, so that a test can
 * tell a clean error exit from a crash: ffmpeg's own exit codes go above
 * 128 (-errno & 255), where a shell would also put a signal.
 *
 * Usage: runcase SECONDS OUT ERR COMMAND [ARGS...]
 * The command's standard output and error go to the files OUT and ERR.
 * Limits for the command alone, from the environment: RUNCASE_FSIZE (bytes a
 * file may grow to; SIGXFSZ ignored, so a write fails with EFBIG as on a
 * full disk) and RUNCASE_AS (bytes of address space, for out-of-memory).
 * Prints one line: "exit N", "signal N" or "timeout"; exits 0.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
    (void)sig;
    timed_out = 1;
}

int main(int argc, char **argv)
{
    struct sigaction sa = { 0 };
    int status;
    pid_t pid;

    if (argc < 5) {
        fprintf(stderr, "usage: %s SECONDS OUT ERR COMMAND [ARGS...]\n", argv[0]);
        return 2;
    }
    pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (!pid) {
        int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
            perror("runcase: output files");
            _exit(127);
        }
        if (getenv("RUNCASE_FSIZE")) {
            struct rlimit rl = { atoll(getenv("RUNCASE_FSIZE")), atoll(getenv("RUNCASE_FSIZE")) };
            signal(SIGXFSZ, SIG_IGN);
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        if (getenv("RUNCASE_AS")) {
            struct rlimit rl = { atoll(getenv("RUNCASE_AS")), atoll(getenv("RUNCASE_AS")) };
            setrlimit(RLIMIT_AS, &rl);
        }
        execvp(argv[4], argv + 4);
        perror(argv[4]);
        _exit(127);
    }
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    alarm(atoi(argv[1]));
    while (waitpid(pid, &status, 0) < 0) {
        if (timed_out) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            printf("timeout\n");
            return 0;
        }
    }
    if (WIFSIGNALED(status))
        printf("signal %d\n", WTERMSIG(status));
    else
        printf("exit %d\n", WEXITSTATUS(status));
    return 0;
}
