/* runner_main.c — what odegen writes as NAME_main.c. */
#include "api.h"

int main(int argc, char **argv) { return model_main(argc, argv); }
