// Auto-growth best-fit caching allocator (the design of Paddle's AutoGrowthBestFitAllocator and
// PyTorch's caching allocator). Memory comes from the device in chunks; a request takes the
// smallest free block that fits (ties broken by address, so behaviour is deterministic), splits
// off the rest, and on free coalesces with free neighbours in the same chunk. When the device
// runs out, idle chunks are returned and the request is retried once. Thread-safe. Map nodes
// and Block records are recycled instead of freed, so the steady state of eager execution
// (allocate, free, allocate the same sizes again) makes no heap allocation in here.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "skiff/core/allocator.h"
#include "skiff/device/device_interface.h"
#include "skiff/profiler/record_event.h"

namespace skiff::device {

class BestFitAllocator final : public Allocator {
 public:
  /// `chunk_bytes`: the least the allocator asks the device for at a time.
  BestFitAllocator(DeviceInterface* device, const Place& place, size_t chunk_bytes);
  ~BestFitAllocator() override;

  void* allocate(size_t nbytes) override;
  void deallocate(void* ptr) override;
  Place place() const override { return place_; }
  AllocatorStats stats() const override;
  void reset_peak_allocated() override;
  void reset_peak_reserved() override;
  void release_idle() override;

  /// Number of chunks obtained from the device and of free blocks (for tests).
  size_t num_chunks() const;
  size_t num_free_blocks() const;

 private:
  struct Chunk;
  struct Block {
    char* ptr;
    size_t size;
    bool free;
    Block* prev;  // neighbours in address order within the chunk
    Block* next;
    Chunk* chunk;
  };
  struct Chunk {
    char* base;
    size_t size;
  };
  using FreeKey = std::pair<size_t, char*>;

  Block* find_free_block(size_t size);
  Block* grow(size_t size);
  Block* add_chunk(void* mem, size_t bytes);
  void split(Block* block, size_t size);
  void release_idle_locked();
  // Tells a running profiler (profile_memory) about a call, with the counters after it.
  void trace(profiler::MemEventType type, const void* ptr, size_t bytes) const;
  Block* new_block(const Block& init);
  void delete_block(Block* block);
  void insert_free(Block* block);
  void erase_free(Block* block);

  DeviceInterface* device_;
  Place place_;
  std::string place_name_;  // for profiler events
  size_t chunk_bytes_;
  mutable std::mutex mu_;
  std::map<FreeKey, Block*> free_blocks_;  // ordered by size, then address: best fit
  std::unordered_map<void*, Block*> used_blocks_;
  std::map<char*, Chunk*> chunks_;  // by base address
  AllocatorStats stats_;
  std::vector<std::map<FreeKey, Block*>::node_type> spare_free_nodes_;
  std::vector<std::unordered_map<void*, Block*>::node_type> spare_used_nodes_;
  std::vector<Block*> spare_blocks_;
};

}  // namespace skiff::device
