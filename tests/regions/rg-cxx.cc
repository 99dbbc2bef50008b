// SPDX-License-Identifier: MIT
// pmctool.h from C++: the functions, the handle type and the macros compile and link (extern "C").
#include <pmctool.h>

#include <cstdio>
#include <string>

int main()
{
	PMCTOOL_REGION_HANDLE(h, "cxx-handle");
	std::string name = "cxx-name";

	for (int i = 0; i < 3; i++) {
		PMCTOOL_REGION_ENTER(h);
		PMCTOOL_REGION_LEAVE(h);
	}
	PMCTOOL_REGION_BEGIN(name.c_str());
	PMCTOOL_REGION_END(name.c_str());
	std::printf("cxx ok %d\n", pmctool_region("cxx-handle") == h);
	return 0;
}
