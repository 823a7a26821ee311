// 65 nested loops: one more than sundial-run runs (lit/run/loop-errors.mlir).
func.func @deep(%x: memref<4xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i0 = %c0 to %c1 step %c1 {
    scf.for %i1 = %c0 to %c1 step %c1 {
      scf.for %i2 = %c0 to %c1 step %c1 {
        scf.for %i3 = %c0 to %c1 step %c1 {
          scf.for %i4 = %c0 to %c1 step %c1 {
            scf.for %i5 = %c0 to %c1 step %c1 {
              scf.for %i6 = %c0 to %c1 step %c1 {
                scf.for %i7 = %c0 to %c1 step %c1 {
                  scf.for %i8 = %c0 to %c1 step %c1 {
                    scf.for %i9 = %c0 to %c1 step %c1 {
                      scf.for %i10 = %c0 to %c1 step %c1 {
                        scf.for %i11 = %c0 to %c1 step %c1 {
                          scf.for %i12 = %c0 to %c1 step %c1 {
                            scf.for %i13 = %c0 to %c1 step %c1 {
                              scf.for %i14 = %c0 to %c1 step %c1 {
                                scf.for %i15 = %c0 to %c1 step %c1 {
                                  scf.for %i16 = %c0 to %c1 step %c1 {
                                    scf.for %i17 = %c0 to %c1 step %c1 {
                                      scf.for %i18 = %c0 to %c1 step %c1 {
                                        scf.for %i19 = %c0 to %c1 step %c1 {
                                          scf.for %i20 = %c0 to %c1 step %c1 {
                                            scf.for %i21 = %c0 to %c1 step %c1 {
                                              scf.for %i22 = %c0 to %c1 step %c1 {
                                                scf.for %i23 = %c0 to %c1 step %c1 {
                                                  scf.for %i24 = %c0 to %c1 step %c1 {
                                                    scf.for %i25 = %c0 to %c1 step %c1 {
                                                      scf.for %i26 = %c0 to %c1 step %c1 {
                                                        scf.for %i27 = %c0 to %c1 step %c1 {
                                                          scf.for %i28 = %c0 to %c1 step %c1 {
                                                            scf.for %i29 = %c0 to %c1 step %c1 {
                                                              scf.for %i30 = %c0 to %c1 step %c1 {
                                                                scf.for %i31 = %c0 to %c1 step %c1 {
                                                                  scf.for %i32 = %c0 to %c1 step %c1 {
                                                                    scf.for %i33 = %c0 to %c1 step %c1 {
                                                                      scf.for %i34 = %c0 to %c1 step %c1 {
                                                                        scf.for %i35 = %c0 to %c1 step %c1 {
                                                                          scf.for %i36 = %c0 to %c1 step %c1 {
                                                                            scf.for %i37 = %c0 to %c1 step %c1 {
                                                                              scf.for %i38 = %c0 to %c1 step %c1 {
                                                                                scf.for %i39 = %c0 to %c1 step %c1 {
                                                                                  scf.for %i40 = %c0 to %c1 step %c1 {
                                                                                    scf.for %i41 = %c0 to %c1 step %c1 {
                                                                                      scf.for %i42 = %c0 to %c1 step %c1 {
                                                                                        scf.for %i43 = %c0 to %c1 step %c1 {
                                                                                          scf.for %i44 = %c0 to %c1 step %c1 {
                                                                                            scf.for %i45 = %c0 to %c1 step %c1 {
                                                                                              scf.for %i46 = %c0 to %c1 step %c1 {
                                                                                                scf.for %i47 = %c0 to %c1 step %c1 {
                                                                                                  scf.for %i48 = %c0 to %c1 step %c1 {
                                                                                                    scf.for %i49 = %c0 to %c1 step %c1 {
                                                                                                      scf.for %i50 = %c0 to %c1 step %c1 {
                                                                                                        scf.for %i51 = %c0 to %c1 step %c1 {
                                                                                                          scf.for %i52 = %c0 to %c1 step %c1 {
                                                                                                            scf.for %i53 = %c0 to %c1 step %c1 {
                                                                                                              scf.for %i54 = %c0 to %c1 step %c1 {
                                                                                                                scf.for %i55 = %c0 to %c1 step %c1 {
                                                                                                                  scf.for %i56 = %c0 to %c1 step %c1 {
                                                                                                                    scf.for %i57 = %c0 to %c1 step %c1 {
                                                                                                                      scf.for %i58 = %c0 to %c1 step %c1 {
                                                                                                                        scf.for %i59 = %c0 to %c1 step %c1 {
                                                                                                                          scf.for %i60 = %c0 to %c1 step %c1 {
                                                                                                                            scf.for %i61 = %c0 to %c1 step %c1 {
                                                                                                                              scf.for %i62 = %c0 to %c1 step %c1 {
                                                                                                                                scf.for %i63 = %c0 to %c1 step %c1 {
                                                                                                                                  scf.for %i64 = %c0 to %c1 step %c1 {
                                                                                                                                  }
                                                                                                                                }
                                                                                                                              }
                                                                                                                            }
                                                                                                                          }
                                                                                                                        }
                                                                                                                      }
                                                                                                                    }
                                                                                                                  }
                                                                                                                }
                                                                                                              }
                                                                                                            }
                                                                                                          }
                                                                                                        }
                                                                                                      }
                                                                                                    }
                                                                                                  }
                                                                                                }
                                                                                              }
                                                                                            }
                                                                                          }
                                                                                        }
                                                                                      }
                                                                                    }
                                                                                  }
                                                                                }
                                                                              }
                                                                            }
                                                                          }
                                                                        }
                                                                      }
                                                                    }
                                                                  }
                                                                }
                                                              }
                                                            }
                                                          }
                                                        }
                                                      }
                                                    }
                                                  }
                                                }
                                              }
                                            }
                                          }
                                        }
                                      }
                                    }
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return
}
