#include "support/under_test.hpp"

preduce::backend preduce::test::under_test() { return preduce::backend::PREDUCE_TEST_BACKEND; }
