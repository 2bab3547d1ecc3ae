// The plain Catch2 main, shared by the test executables that need no set-up of their own.
#include "catch_session.hpp"

int main(int argc, char** argv)
{
    return nanscope::test::runCatch(argc, argv);
}
