#include <loopnest/loopnest.hpp>

int main() {
  using s = loopnest::with_cells_per_thread_t<loopnest::collapse4, 4>;
  return s::cells_per_thread;
}
