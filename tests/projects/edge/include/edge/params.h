#pragma once

namespace edge {

/// Passed to a kernel by value.
struct Shape {
  int rows;
  int cols;
  float eps;
};

}  // namespace edge
