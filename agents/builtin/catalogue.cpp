#include "agents/builtin/catalogue.h"

#include "agents/builtin/block_per_row.h"
#include "agents/builtin/block_reduce.h"
#include "agents/builtin/block_shape.h"
#include "agents/builtin/block_size.h"
#include "agents/builtin/fast_math.h"
#include "agents/builtin/launch_bounds.h"
#include "agents/builtin/ldg.h"
#include "agents/builtin/max_registers.h"
#include "agents/builtin/privatize.h"
#include "agents/builtin/restrict.h"
#include "agents/builtin/row_cache.h"
#include "agents/builtin/row_scan.h"
#include "agents/builtin/split_reduction.h"
#include "agents/builtin/tile_matmul.h"
#include "agents/builtin/tile_stencil.h"
#include "agents/builtin/tile_transpose.h"
#include "agents/builtin/unroll.h"
#include "agents/builtin/vectorize.h"

namespace stark::builtin {

const std::vector<std::unique_ptr<Strategy>>& catalogue() {
  static const std::vector<std::unique_ptr<Strategy>> all = [] {
    std::vector<std::unique_ptr<Strategy>> v;
    v.push_back(std::make_unique<BlockReduce>());
    v.push_back(std::make_unique<Privatize>());
    v.push_back(std::make_unique<BlockPerRow>());
    v.push_back(std::make_unique<RowScan>());
    v.push_back(std::make_unique<RowCache>());
    v.push_back(std::make_unique<TileTranspose>());
    v.push_back(std::make_unique<TileMatmul>());
    v.push_back(std::make_unique<TileStencil>());
    // After the tiles: a matmul's inner product is a reduction too, but its tiles serve it better.
    v.push_back(std::make_unique<SplitReduction>());
    v.push_back(std::make_unique<Vectorize>());
    v.push_back(std::make_unique<BlockSize>());
    v.push_back(std::make_unique<BlockShape>());
    v.push_back(std::make_unique<Restrict>());
    v.push_back(std::make_unique<Ldg>());
    v.push_back(std::make_unique<FastMath>());
    v.push_back(std::make_unique<LaunchBounds>());
    v.push_back(std::make_unique<MaxRegisters>());
    v.push_back(std::make_unique<Unroll>());
    return v;
  }();
  return all;
}

const Strategy* find_strategy(std::string_view name) {
  for (const auto& s : catalogue())
    if (s->name() == name) return s.get();
  return nullptr;
}

bool is_structural(const Strategy& s) { return s.kind() == StrategyKind::Structural; }

}  // namespace stark::builtin
