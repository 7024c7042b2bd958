// `simulate`: exactly `spotsim simulate`, under the name users type.
#include "cli/commands.hpp"

int main(int argc, char** argv) { return spotsim::simulate_command(argc, argv); }
