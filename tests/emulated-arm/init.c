/*
 * /init of the emulated-Arm guest: mounts what uarchdiff reads (/proc, /sys)
 * and where it writes (/tmp, /out), runs /guest.sh with busybox's sh, and
 * powers the machine off whatever happened, so QEMU exits on its own
 * (-no-reboot).  The guest script reports its results on the console.
 */
#include <stdio.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void mount_fs(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) != 0)
		perror(dir);
}

int main(void)
{
	int status = 0;
	pid_t pid;

	/* Else the kernel's "(none)" names the host in every profile's label. */
	sethostname("emulated-neoverse-n1", 20);
	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	mount_fs("devtmpfs", "/dev");
	mount_fs("tmpfs", "/tmp");
	mount_fs("tmpfs", "/out");
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "sh", "/guest.sh", NULL };
		char *envp[] = { "PATH=/usr/bin:/bin", "HOME=/", "TMPDIR=/tmp", NULL };

		execve("/bin/sh", argv, envp);
		perror("/bin/sh");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		perror("init");
	printf("UD-GUEST-EXIT %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
