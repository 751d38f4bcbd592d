#include <loopnest/loopnest.hpp>

double twice(double x) {
  return 2 * x;
}

int main() {
  return static_cast<int>(loopnest::load_read_only(twice(1.0)));
}
