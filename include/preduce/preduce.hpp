#pragma once
// Everything a caller of the compiled front end needs.
#include "preduce/backend.hpp"
#include "preduce/config.hpp"
#include "preduce/errors.hpp"
#include "preduce/ops.hpp"
#include "preduce/options.hpp"
#include "preduce/reduce.hpp"
#include "preduce/reducers.hpp"
#include "preduce/segmented.hpp"
#include "preduce/custom.hpp"
#include "preduce/fused.hpp"
#include "preduce/source.hpp"
#include "preduce/transforms.hpp"
