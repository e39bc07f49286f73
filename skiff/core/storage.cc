#include "skiff/core/storage.h"

#include <utility>

namespace skiff {

Storage::Storage(size_t nbytes, const Place& place)
    : nbytes_(nbytes), place_(place), allocator_(allocator_for(place)) {
  data_ = allocator_->allocate(nbytes);
}

Storage::Storage(void* data, size_t nbytes, const Place& place, std::function<void()> release)
    : data_(data), nbytes_(nbytes), place_(place), release_(std::move(release)) {}

Storage::~Storage() {
  if (allocator_) {
    allocator_->deallocate(data_);
  } else if (release_) {
    release_();
  }
}

}  // namespace skiff
