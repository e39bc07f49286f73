#include "skiff/device/best_fit_allocator.h"

#include <algorithm>
#include <cstdint>

#include "skiff/base/error.h"

namespace skiff::device {

namespace {
size_t round_up(size_t n) {
  const size_t a = Allocator::kAlignment;
  return std::max<size_t>(a, (n + a - 1) / a * a);
}
// A remainder smaller than this stays inside the allocated block instead of becoming a sliver
// of free memory that no request could use.
constexpr size_t kMinSplitRemainder = 512;
}  // namespace

BestFitAllocator::BestFitAllocator(DeviceInterface* device, const Place& place, size_t chunk_bytes)
    : device_(device),
      place_(place),
      place_name_(str(place)),
      chunk_bytes_(round_up(chunk_bytes)) {}

void BestFitAllocator::trace(profiler::MemEventType type, const void* ptr, size_t bytes) const {
  if (!profiler::memory_enabled()) [[likely]]
    return;
  profiler::record_memory(type, place_name_, ptr, static_cast<int64_t>(bytes),
                          stats_.allocated_bytes, stats_.reserved_bytes,
                          stats_.peak_allocated_bytes, stats_.peak_reserved_bytes);
}

BestFitAllocator::~BestFitAllocator() {
  std::lock_guard<std::mutex> lock(mu_);
  release_idle_locked();
  for (Block* b : spare_blocks_) delete b;
}

BestFitAllocator::Block* BestFitAllocator::new_block(const Block& init) {
  if (spare_blocks_.empty()) return new Block(init);
  Block* b = spare_blocks_.back();
  spare_blocks_.pop_back();
  *b = init;
  return b;
}

void BestFitAllocator::delete_block(Block* block) { spare_blocks_.push_back(block); }

void BestFitAllocator::insert_free(Block* block) {
  const FreeKey key{block->size, block->ptr};
  if (spare_free_nodes_.empty()) {
    free_blocks_.emplace(key, block);
    return;
  }
  auto node = std::move(spare_free_nodes_.back());
  spare_free_nodes_.pop_back();
  node.key() = key;
  node.mapped() = block;
  free_blocks_.insert(std::move(node));
}

void BestFitAllocator::erase_free(Block* block) {
  spare_free_nodes_.push_back(free_blocks_.extract(FreeKey{block->size, block->ptr}));
}

BestFitAllocator::Block* BestFitAllocator::find_free_block(size_t size) {
  auto it = free_blocks_.lower_bound(FreeKey{size, nullptr});
  if (it == free_blocks_.end()) return nullptr;
  Block* block = it->second;
  spare_free_nodes_.push_back(free_blocks_.extract(it));
  return block;
}

BestFitAllocator::Block* BestFitAllocator::add_chunk(void* mem, size_t bytes) {
  auto* chunk = new Chunk{static_cast<char*>(mem), bytes};
  chunks_.emplace(chunk->base, chunk);
  stats_.reserved_bytes += static_cast<int64_t>(bytes);
  stats_.peak_reserved_bytes = std::max(stats_.peak_reserved_bytes, stats_.reserved_bytes);
  ++stats_.num_device_allocs;
  trace(profiler::MemEventType::kReservedAllocate, mem, bytes);
  return new_block(Block{chunk->base, bytes, true, nullptr, nullptr, chunk});
}

BestFitAllocator::Block* BestFitAllocator::grow(size_t size) {
  const int id = place_.device_id();
  size_t bytes = std::max(size, chunk_bytes_);
  void* mem = device_->allocate(id, bytes);
  if (mem == nullptr) {  // out of device memory: give back idle chunks and retry
    release_idle_locked();
    mem = device_->allocate(id, bytes);
  }
  if (mem == nullptr && bytes > size) {  // a chunk of exactly the request may still fit
    bytes = size;
    mem = device_->allocate(id, bytes);
  }
  SKIFF_ENFORCE(mem != nullptr, kOutOfMemory, "allocator", "nbytes",
                str("free memory on ", place_, " (allocated ", stats_.allocated_bytes,
                    " bytes, reserved ", stats_.reserved_bytes, " bytes)"),
                str(size, " bytes requested"));
  return add_chunk(mem, bytes);
}

void BestFitAllocator::split(Block* block, size_t size) {
  if (block->size - size < kMinSplitRemainder) return;
  Block* rest = new_block(
      Block{block->ptr + size, block->size - size, true, block, block->next, block->chunk});
  if (block->next) block->next->prev = rest;
  block->next = rest;
  block->size = size;
  insert_free(rest);
}

void* BestFitAllocator::allocate(size_t nbytes) {
  // Rounding up a size within kAlignment of SIZE_MAX would wrap around to a tiny block.
  SKIFF_ENFORCE(nbytes <= SIZE_MAX - kAlignment, kOutOfMemory, "allocator", "nbytes",
                str("a size the device could hold on ", place_), str(nbytes, " bytes requested"));
  const size_t size = round_up(nbytes);
  std::lock_guard<std::mutex> lock(mu_);
  Block* block = find_free_block(size);
  if (block == nullptr) block = grow(size);
  split(block, size);
  block->free = false;
  if (spare_used_nodes_.empty()) {
    used_blocks_.emplace(block->ptr, block);
  } else {
    auto node = std::move(spare_used_nodes_.back());
    spare_used_nodes_.pop_back();
    node.key() = block->ptr;
    node.mapped() = block;
    used_blocks_.insert(std::move(node));
  }
  stats_.allocated_bytes += static_cast<int64_t>(block->size);
  stats_.peak_allocated_bytes = std::max(stats_.peak_allocated_bytes, stats_.allocated_bytes);
  ++stats_.num_allocs;
  trace(profiler::MemEventType::kAllocate, block->ptr, block->size);
  return block->ptr;
}

void BestFitAllocator::deallocate(void* ptr) {
  if (ptr == nullptr) return;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = used_blocks_.find(ptr);
  SKIFF_ENFORCE(it != used_blocks_.end(), kInvalidArgument, "allocator", "ptr",
                str("a pointer allocated on ", place_), "an unknown pointer");
  Block* block = it->second;
  spare_used_nodes_.push_back(used_blocks_.extract(it));
  stats_.allocated_bytes -= static_cast<int64_t>(block->size);
  trace(profiler::MemEventType::kFree, block->ptr, block->size);
  block->free = true;
  auto unlink_free = [this](Block* b) { erase_free(b); };
  if (Block* next = block->next; next && next->free) {  // absorb the next block
    unlink_free(next);
    block->size += next->size;
    block->next = next->next;
    if (next->next) next->next->prev = block;
    delete_block(next);
  }
  if (Block* prev = block->prev; prev && prev->free) {  // let the previous block absorb us
    unlink_free(prev);
    prev->size += block->size;
    prev->next = block->next;
    if (block->next) block->next->prev = prev;
    delete_block(block);
    block = prev;
  }
  insert_free(block);
}

void BestFitAllocator::release_idle_locked() {
  for (auto it = chunks_.begin(); it != chunks_.end();) {
    Chunk* chunk = it->second;
    // A chunk is idle when one free block spans all of it.
    auto node = free_blocks_.find(FreeKey{chunk->size, chunk->base});
    if (node == free_blocks_.end()) {
      ++it;
      continue;
    }
    delete_block(node->second);
    free_blocks_.erase(node);
    device_->deallocate(place_.device_id(), chunk->base, chunk->size);
    stats_.reserved_bytes -= static_cast<int64_t>(chunk->size);
    trace(profiler::MemEventType::kReservedFree, chunk->base, chunk->size);
    delete chunk;
    it = chunks_.erase(it);
  }
}

void BestFitAllocator::release_idle() {
  std::lock_guard<std::mutex> lock(mu_);
  release_idle_locked();
}

AllocatorStats BestFitAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

void BestFitAllocator::reset_peak_allocated() {
  std::lock_guard<std::mutex> lock(mu_);
  stats_.peak_allocated_bytes = stats_.allocated_bytes;
}

void BestFitAllocator::reset_peak_reserved() {
  std::lock_guard<std::mutex> lock(mu_);
  stats_.peak_reserved_bytes = stats_.reserved_bytes;
}

size_t BestFitAllocator::num_chunks() const {
  std::lock_guard<std::mutex> lock(mu_);
  return chunks_.size();
}

size_t BestFitAllocator::num_free_blocks() const {
  std::lock_guard<std::mutex> lock(mu_);
  return free_blocks_.size();
}

}  // namespace skiff::device
