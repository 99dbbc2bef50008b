/* SPDX-License-Identifier: MIT */
/* Runs a libFuzzer target over files and directories of inputs, so each corpus is an ordinary test under any
 * compiler. Exit 0 when every input ran; a crash is the failure. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	buf = malloc((size_t)len + 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

static int run_path(const char *path, unsigned *count)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	d = opendir(path);
	if (!d) {
		perror(path);
		return -1;
	}
	while ((de = readdir(d))) {
		char sub[4096];
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (run_path(sub, count))
			rc = -1;
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int rc = 0;

	for (int i = 1; i < argc; i++)
		if (run_path(argv[i], &count))
			rc = 1;
	printf("replayed %u inputs\n", count);
	if (count == 0) {
		fprintf(stderr, "no inputs found: the corpus is missing\n");
		return 1;
	}
	return rc;
}
