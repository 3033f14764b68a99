/* flashbench: options and dispatch (being written). */
#include <stdio.h>

int main(void)
{
	puts("flashbench " FB_VERSION);
	return 0;
}
