"""Recurrent neural network functions: LSTM cells and n-step RNNs."""
