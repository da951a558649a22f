"""Links of recurrent layers: LSTM, GRU, MGU and their n-step forms."""
