"""HTTP resources, one blueprint each."""
